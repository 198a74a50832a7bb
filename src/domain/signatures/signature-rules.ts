import { WirebirdError, invalid, missing } from '../errors.js';
import { charCount } from '../templates/char-count.js';
import { TemplateStatus } from '../templates/template.js';
import type { Signature, SignatureFields } from './signature.js';

/** UCloud's limits: 2 to 12 characters; the brackets are added by the carrier, not written. */
export const SignatureLimits = { minContent: 2, maxContent: 12, text: 128 } as const;

function checkContent(sigContent: string): void {
  if (sigContent === '') throw missing('SigContent');
  const n = charCount(sigContent);
  if (n < SignatureLimits.minContent || n > SignatureLimits.maxContent) {
    throw invalid(
      'SigContent',
      `must be ${SignatureLimits.minContent} to ${SignatureLimits.maxContent} characters (it has ${n})`,
    );
  }
  if (/[【】[\]]/.test(sigContent)) {
    throw invalid('SigContent', 'must not contain 【】 or []: they are added when it is sent');
  }
  if (sigContent.trim() !== sigContent) {
    throw invalid('SigContent', 'must not start or end with spaces');
  }
}

function checkRange(field: string, value: number, max: number, meaning: string): void {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw invalid(field, `must be an integer from 0 to ${max} (${meaning})`);
  }
}

/** The rules of CreateUSMSSignature and UpdateUSMSSignature on the fields both take. */
export function checkSignatureFields(f: SignatureFields): void {
  checkContent(f.sigContent);
  checkRange('SigType', f.sigType, 5, 'the kind of name: 0 company … 5 government');
  checkRange('SigPurpose', f.sigPurpose, 1, '0 own use, 1 on behalf of another');
  checkRange('CertificateType', f.certificateType, 5, 'the kind of qualification document');
  for (const [field, value] of [
    ['Description', f.description],
    ['SceneDesc', f.sceneDesc],
  ] as const) {
    const n = charCount(value);
    if (n > SignatureLimits.text) {
      throw invalid(field, `must be at most ${SignatureLimits.text} characters (it has ${n})`);
    }
  }
  if (f.sigPurpose === 1 && f.proxyFileMediaId === '') {
    throw missing('ProxyFile (a signature used on behalf of another, SigPurpose 1, needs one)');
  }
}

export function newSignature(
  fields: SignatureFields,
  ids: { sigId: string; accountId: number },
  now: number,
): Signature {
  if (fields.description.trim() === '') throw missing('Description');
  checkSignatureFields(fields);
  return {
    ...fields,
    ...ids,
    status: TemplateStatus.Pending,
    errDesc: '',
    createdAt: now,
    updatedAt: now,
    version: 0,
  };
}

/**
 * UpdateUSMSSignature changes a signature that is not approved and sends it back to review
 * (the SDK: "修改未通过审核的短信签名，并重新提交审核"); an approved one is refused.
 */
export function updateSignature(
  current: Signature,
  fields: SignatureFields,
  now: number,
): Signature {
  checkSignatureFields(fields);
  if (current.status === TemplateStatus.Approved) {
    throw new WirebirdError(
      'StateConflict',
      `signature ${current.sigId} is approved and cannot be updated`,
    );
  }
  return {
    ...current,
    ...fields,
    status: TemplateStatus.Pending,
    errDesc: '',
    updatedAt: now,
  };
}
