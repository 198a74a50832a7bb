/** The SMS template (the spec's OutTemplate) and its status values. */
export const TemplateStatus = {
  Pending: 0,
  UnderReview: 1,
  Approved: 2,
  FailedReview: 3,
  Disabled: 4,
} as const;
export type TemplateStatus = (typeof TemplateStatus)[keyof typeof TemplateStatus];

export type Purpose = 1 | 2 | 3;

export interface Template {
  templateId: string;
  accountId: number;
  purpose: Purpose;
  templateName: string;
  template: string;
  status: TemplateStatus;
  remark: string;
  errDesc: string;
  instruction: string;
  /** An international template (UCloud's International); domestic when false. */
  international: boolean;
  /** The opt-out line of a domestic promotion template (UCloud's UnsubscribeInfo), or ''. */
  unsubscribeInfo: string;
  /** Milliseconds since the Unix epoch; the API answers in seconds. */
  createdAt: number;
  updatedAt: number;
  /** Bumped by every save, so that a save based on a stale read is refused, not applied. */
  version: number;
}
