import { missing, WirebirdError } from '../errors.js';
import { TemplateStatus, type Template } from './template.js';

export type ReviewAction = 'startReview' | 'approve' | 'reject' | 'disable';

/** Each review step as a past participle: the console's notice and the audit log's verb. */
export const REVIEWED_AS: Readonly<Record<ReviewAction, string>> = {
  startReview: 'under_review',
  approve: 'approved',
  reject: 'rejected',
  disable: 'disabled',
};

export const STATUS_LABEL: Record<TemplateStatus, string> = {
  [TemplateStatus.Pending]: 'pending',
  [TemplateStatus.UnderReview]: 'under review',
  [TemplateStatus.Approved]: 'approved',
  [TemplateStatus.FailedReview]: 'failed review',
  [TemplateStatus.Disabled]: 'disabled',
};

// The spec shows only the reset on update; this is Wirebird's review workflow. A verdict is
// final: a failed or approved template changes only through an update (which resubmits it) or
// by being disabled, and a disabled template comes back only through an update of its content.
const MOVES: Record<ReviewAction, { from: readonly TemplateStatus[]; to: TemplateStatus }> = {
  startReview: { from: [TemplateStatus.Pending], to: TemplateStatus.UnderReview },
  approve: {
    from: [TemplateStatus.Pending, TemplateStatus.UnderReview],
    to: TemplateStatus.Approved,
  },
  reject: {
    from: [TemplateStatus.Pending, TemplateStatus.UnderReview],
    to: TemplateStatus.FailedReview,
  },
  disable: {
    from: [
      TemplateStatus.Pending,
      TemplateStatus.UnderReview,
      TemplateStatus.Approved,
      TemplateStatus.FailedReview,
    ],
    to: TemplateStatus.Disabled,
  },
};

const describeStatus = (s: TemplateStatus): string => `${STATUS_LABEL[s]} (${s})`;

function joinOr(items: readonly string[]): string {
  const last = items.at(-1) ?? '';
  return items.length <= 1 ? last : `${items.slice(0, -1).join(', ')} or ${last}`;
}

const hasText = (s: string | undefined): s is string => s !== undefined && s.trim() !== '';

/** What review moves: a template, or a signature (the same statuses and workflow). */
export interface Reviewable {
  status: TemplateStatus;
  errDesc: string;
  updatedAt: number;
}

function nextErrDesc(
  current: Reviewable,
  action: ReviewAction,
  errDesc: string | undefined,
): string {
  switch (action) {
    case 'reject':
      return errDesc ?? '';
    case 'approve':
      // A stale rejection reason next to an approved status would mislead QueryUSMSTemplate readers.
      return '';
    case 'disable':
      // ErrDesc is the only reason field the API shows, so an operator's reason lands there.
      return hasText(errDesc) ? errDesc : current.errDesc;
    case 'startReview':
      return current.errDesc;
  }
}

/** Moves a template through review; throws StateConflict naming the current status when the move is not allowed. */
export function reviewTemplate(
  current: Template,
  action: ReviewAction,
  now: number,
  errDesc?: string,
): Template {
  return reviewStep(current, { name: `template ${current.templateId}`, action, now, errDesc });
}

/** One review move of anything reviewed (`name` says what, in a refusal). */
export function reviewStep<T extends Reviewable>(
  current: T,
  step: { name: string; action: ReviewAction; now: number; errDesc?: string },
): T {
  const { name, action, now, errDesc } = step;
  if (action === 'reject' && !hasText(errDesc)) throw missing('ErrDesc');
  const move = MOVES[action];
  if (!move.from.includes(current.status)) {
    throw new WirebirdError(
      'StateConflict',
      `${name} is ${describeStatus(current.status)}; ` +
        `${action} is allowed from ${joinOr(move.from.map(describeStatus))}`,
    );
  }
  return {
    ...current,
    status: move.to,
    errDesc: nextErrDesc(current, action, errDesc),
    updatedAt: now,
  };
}
