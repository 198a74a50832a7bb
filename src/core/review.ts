import { WirebirdError } from '../domain/errors.js';
import { templateReviewedEvent } from '../domain/events/payloads.js';
import type { Store } from '../domain/ports.js';
import { reviewTemplate, type ReviewAction } from '../domain/templates/template-review.js';
import type { Template } from '../domain/templates/template.js';
import type { Signature } from '../domain/signatures/signature.js';
import { reviewSignature } from '../domain/signatures/signature-review.js';

/** A review step: approve, reject (with its reason) or disable, at a time. */
export interface ReviewStep {
  action: ReviewAction;
  now: number;
  errDesc?: string | undefined;
}

/** One review step by template id alone (an operator acts across accounts): admin API and CLI. */
export async function reviewById(
  store: Store,
  templateId: string,
  { action, now, errDesc }: ReviewStep,
): Promise<Template> {
  const current = await store.getTemplateById(templateId);
  if (!current) throw new WirebirdError('NotFound', `TemplateId ${templateId} not found`);
  const next = reviewTemplate(current, action, now, errDesc);
  const saved = await store.replaceTemplate(next, templateReviewedEvent(next, now));
  if (!saved)
    throw new WirebirdError('StateConflict', `TemplateId ${templateId} changed meanwhile; retry`);
  return saved;
}

/** One review step of a signature by its id alone (admin API and console). */
export async function reviewSignatureById(
  store: Store,
  sigId: string,
  { action, now, errDesc }: ReviewStep,
): Promise<Signature> {
  const current = await store.getSignatureById(sigId);
  if (!current) throw new WirebirdError('NotFound', `SigId ${sigId} not found`);
  const saved = await store.replaceSignature(reviewSignature(current, action, now, errDesc));
  if (!saved) throw new WirebirdError('StateConflict', `SigId ${sigId} changed meanwhile; retry`);
  return saved;
}
