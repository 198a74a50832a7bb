import type { ReportStatus } from '../messages/message.js';

export type ReceiptResult = 'Success' | 'Fail' | 'Unknow' | 'SubmitFail';

/** The spec's ReceiptPerPhone, as GetUSMSSendReceipt answers it. */
export interface ReceiptPerPhone {
  Phone: string;
  CostCount: number;
  ReceiptResult: ReceiptResult;
  ReceiptCode: string;
  ReceiptDesc: string;
  /** Unix seconds. */
  ReceiptTime: number;
  UserId: string;
}

/** The receipt a final report gives; 'sent' is not final and gives none. */
export function receiptResultOf(status: ReportStatus): ReceiptResult | undefined {
  switch (status) {
    case 'delivered':
    case 'read':
      return 'Success';
    case 'failed':
      return 'Fail';
    case 'unknown':
      return 'Unknow';
    case 'sent':
      return undefined;
  }
}
