import { concatText } from '../../domain/messages/concat.js';
import type { AcceptedBatch } from '../../domain/messages/message.js';
import { INSERT_COLUMNS } from '../rows/messages.js';
import type { Queryable } from './database.js';

/**
 * One statement for the whole batch, whatever its size: the rows travel as one JSON parameter
 * that json_to_recordset() turns back into rows, so a 1000-number request is one round trip and
 * one plan. JSON rather than one array per column: JSON.stringify is native, while the driver
 * escapes array elements one by one in JavaScript (a tenth of the node's acceptance CPU).
 */
// An SMPP submit's bind for its receipts and its part of an ESME-split message ($5, $6) are
// written with the rows, not by an UPDATE after them.
const INSERT = `INSERT INTO messages (${INSERT_COLUMNS}, receipt_to, concat, expires_at)
  SELECT 'sms', $1, $2, NULL, t.p, t.e, t.r, t.t, t.a, t.s, t.x, t.u, t.b, 'sms', '', t.c,
    'queued', 'accepted', COALESCE(t.d, $7), $3, $5, $6, $8
  FROM json_to_recordset($4::json)
    AS t(p text, e text, r text, t text, a text, s text, x text, u text, b text, c int, d bigint)`;

/** Inserts a batch's SMS rows; the caller holds the transaction. */
export async function insertSms(db: Queryable, batch: AcceptedBatch): Promise<void> {
  const rows = batch.messages.map((m) => ({
    p: m.phone,
    e: m.e164,
    r: m.route,
    t: m.templateId,
    a: JSON.stringify(m.params),
    s: m.senderId,
    x: m.extendCode,
    u: m.userId,
    b: m.text,
    c: m.costCount,
    d: m.dueAt ?? null,
  }));
  await db.query(INSERT, [
    batch.accountId,
    batch.sessionNo,
    batch.acceptedAt,
    JSON.stringify(rows),
    batch.receiptTo ?? null,
    batch.concat ? concatText(batch.concat) : null,
    batch.dueAt ?? batch.acceptedAt,
    batch.expiresAt ?? null,
  ]);
}
