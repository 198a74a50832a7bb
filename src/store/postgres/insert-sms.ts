import type { AcceptedBatch } from '../../domain/messages/message.js';
import type { Queryable } from './database.js';

/**
 * One statement for the whole batch, whatever its size: each column travels as one array
 * parameter and unnest() turns the arrays back into rows, so a 1000-number request is one
 * round trip and one plan.
 */
const INSERT = `INSERT INTO messages (kind, account_id, session_no, message_id, phone, e164, route,
    template_id, params, sender_id, extend_code, user_id, body, type, business_phone, cost_count,
    state, status, due_at, accepted_at)
  SELECT 'sms', $1, $2, NULL, t.phone, t.e164, t.route, t.template_id, t.params, t.sender_id,
    t.extend_code, t.user_id, t.body, 'sms', '', t.cost_count, 'queued', 'accepted', $3, $3
  FROM unnest($4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[],
    $10::text[], $11::text[], $12::text[], $13::int[])
    AS t(phone, e164, route, template_id, params, sender_id, extend_code, user_id, body, cost_count)`;

/** Inserts a batch's SMS rows; the caller holds the transaction. */
export async function insertSms(db: Queryable, batch: AcceptedBatch): Promise<void> {
  const { messages } = batch;
  const n = messages.length;
  const columns = Array.from({ length: 10 }, () => new Array<unknown>(n));
  for (let i = 0; i < n; i++) {
    const m = messages[i];
    if (!m) continue;
    const row = [
      m.phone,
      m.e164,
      m.route,
      m.templateId,
      JSON.stringify(m.params),
      m.senderId,
      m.extendCode,
      m.userId,
      m.text,
      m.costCount,
    ];
    for (let c = 0; c < 10; c++) (columns[c] as unknown[])[i] = row[c];
  }
  await db.query(INSERT, [batch.accountId, batch.sessionNo, batch.acceptedAt, ...columns]);
}
