/**
 * Cancelling what was not yet submitted upstream (cancel_sm, docs/smpp-server.md): the messages
 * of one of the account's sessions still queued, or the one to a number among them, end as a
 * SubmitFail with code CANCELLED. A message already claimed by a dispatcher is not queued any
 * more, so a cancel never races a submit.
 */
export const CANCELLED_CODE = 'CANCELLED';
export const CANCELLED_DESC = 'cancelled before it was submitted upstream (cancel_sm)';

/** Parameters: receipt time (s), session, account, then the E.164 number when one is named. */
export function cancelSql(p: (n: number) => string, oneNumber: boolean): string {
  return `UPDATE messages SET state = 'final', due_at = NULL, status = 'failed',
      receipt_result = 'SubmitFail', receipt_code = '${CANCELLED_CODE}',
      receipt_desc = '${CANCELLED_DESC}', receipt_time = ${p(1)}
    WHERE session_no = ${p(2)} AND account_id = ${p(3)} AND state = 'queued'
      ${oneNumber ? `AND e164 = ${p(4)}` : ''}
    RETURNING id, kind, account_id, receipt_to`;
}

export interface CancelledRow {
  id: number;
  kind: string;
  account_id: number;
  receipt_to: string | null;
}
