/**
 * replace_sm on SMS still queued: one UPDATE setting only what the change names. The `state =
 * 'queued'` guard is the claim's own, so a replace never races a submit: a message already
 * claimed is not changed, and the ESME is told so.
 */
import type { HeldChange } from '../../domain/messages/schedule.js';
import { paramList } from './params.js';

/** The statement and its values; `p(n)` writes the dialect's n-th placeholder. */
export function replaceSql(
  p: (n: number) => string,
  accountId: number,
  sessionNo: string,
  c: HeldChange,
): { sql: string; values: unknown[] } {
  const { values, param } = paramList(p);
  const set = [`receipt_to = ${param(c.receiptTo)}`];
  if (c.text) set.push(`body = ${param(c.text.body)}`, `cost_count = ${param(c.text.costCount)}`);
  if (c.dueAt !== undefined) set.push(`due_at = ${param(c.dueAt)}`);
  if (c.expiresAt !== undefined) set.push(`expires_at = ${param(c.expiresAt)}`);
  const where = [
    `session_no = ${param(sessionNo)}`,
    `account_id = ${param(accountId)}`,
    "kind = 'sms'",
    "state = 'queued'",
    // An ESME's own part carries its UDH's place in the whole: a new text would break it.
    'concat IS NULL',
  ];
  if (c.senderId !== undefined) where.push(`sender_id = ${param(c.senderId)}`);
  return { sql: `UPDATE messages SET ${set.join(', ')} WHERE ${where.join(' AND ')}`, values };
}
