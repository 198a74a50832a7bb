/**
 * Cancelling what was not yet handed upstream (CancelScheduledMessages, cancel_sm): the messages
 * of one of the account's sessions still queued, or the one to a number among them, end as Fail
 * with code CANCELED and CostCount 0. A message already claimed by a dispatcher is not queued
 * any more, so a cancel never races a submit.
 */
import {
  CANCELED_CODE,
  CANCELED_DESC,
  EXPIRED_CODE,
  EXPIRED_DESC,
} from '../../domain/messages/schedule.js';

/** Parameters: receipt time (s), session, account, then the E.164 number when one is named. */
export function cancelSql(p: (n: number) => string, oneNumber: boolean): string {
  return `UPDATE messages SET state = 'final', due_at = NULL, status = 'failed',
      receipt_result = 'Fail', receipt_code = '${CANCELED_CODE}',
      receipt_desc = '${CANCELED_DESC}', receipt_time = ${p(1)}, cost_count = 0
    WHERE session_no = ${p(2)} AND account_id = ${p(3)} AND state = 'queued'
      ${oneNumber ? `AND e164 = ${p(4)}` : ''}
    RETURNING id, kind, account_id, receipt_to`;
}

/** Parameters: receipt time (s), account, MessageId: a business message still queued. */
export function cancelBusinessSql(p: (n: number) => string): string {
  return `UPDATE messages SET state = 'final', due_at = NULL, status = 'failed',
      receipt_result = 'Fail', receipt_code = '${CANCELED_CODE}',
      receipt_desc = '${CANCELED_DESC}', receipt_time = ${p(1)}, cost_count = 0
    WHERE account_id = ${p(2)} AND message_id = ${p(3)} AND state = 'queued'
    RETURNING id, kind, account_id, receipt_to`;
}

/** Parameters: receipt time (s), now, limit: queued messages whose validity passed. */
export function expireSql(p: (n: number) => string): string {
  return `UPDATE messages SET state = 'final', due_at = NULL, status = 'failed',
      receipt_result = 'Fail', receipt_code = '${EXPIRED_CODE}',
      receipt_desc = '${EXPIRED_DESC}', receipt_time = ${p(1)}, cost_count = 0
    WHERE id IN (SELECT id FROM messages WHERE state = 'queued' AND expires_at IS NOT NULL
      AND expires_at <= ${p(2)} ORDER BY expires_at LIMIT ${p(3)})
      AND state = 'queued'
    RETURNING id, kind, account_id, receipt_to`;
}

export interface CancelledRow {
  id: number;
  kind: string;
  account_id: number;
  receipt_to: string | null;
}
