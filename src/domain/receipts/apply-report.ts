import type { Report } from '../messages/message.js';
import { advanceStatus } from '../messages/status.js';
import { receiptResultOf, type ReceiptResult } from './receipt.js';

/** What a report needs to know of its message. */
export interface ReportedMessage {
  status: string;
  /** 'final' once the message has its receipt. */
  state: string;
}

export interface ReportOutcome {
  /** The message's status after the report: it only ever moves forward. */
  status: string;
  /** The receipt the report makes, when it is the message's first final report. */
  receipt?: { result: ReceiptResult; code: string; desc: string; time: number };
}

/**
 * The one rule for applying a delivery report to a message, which both stores follow. `speaking`
 * is the report that speaks for the whole message: the report itself, or for a multipart SMS the
 * parts' combined final report once every part has one (undefined until then, when the message
 * counts as sent). The first final report makes the receipt, timed by the report that completed
 * it (Unix seconds); later reports only move the status forward.
 */
export function applyReport(
  message: ReportedMessage,
  speaking: Pick<Report, 'status' | 'code' | 'desc'> | undefined,
  report: Pick<Report, 'at'>,
): ReportOutcome {
  const status = advanceStatus(message.status, speaking?.status ?? 'sent') ?? message.status;
  const result = speaking && receiptResultOf(speaking.status);
  if (!speaking || !result || message.state === 'final') return { status };
  const time = Math.floor(report.at / 1000);
  return { status, receipt: { result, code: speaking.code, desc: speaking.desc, time } };
}
