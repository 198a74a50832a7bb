/** SendBatchUSMSMessage's request groups and its FailContent, in the spec's own field names. */
export interface TargetModal {
  Phone: string;
  TemplateParams?: (string | number)[];
  SenderId?: string;
  ExtendCode?: string;
  UserId?: string;
}

export interface TaskCountModal {
  TemplateId: string;
  SenderId?: string;
  Target: TargetModal[];
}

export interface FailPhoneDetail {
  TemplateParams: string[];
  Phone: string;
  ExtendCode: string;
  UserId: string;
  FailureDetails: string;
}

export interface BatchInfo {
  TemplateId: string;
  SenderId: string;
  Target: FailPhoneDetail[];
  FailureDetails?: string;
}

export const MAX_NUMBERS_PER_REQUEST = 1000;
export const MAX_USER_ID_LENGTH = 32;
