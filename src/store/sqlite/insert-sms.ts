import type { AcceptedBatch } from '../../domain/messages/message.js';
import type { Db } from './database.js';

/** Rows per INSERT: one statement for many rows costs far less than one statement per row. */
const CHUNK = 64;

const COLUMNS = `INSERT INTO messages (kind, account_id, session_no, message_id, phone, e164, route,
  template_id, params, sender_id, extend_code, user_id, body, type, business_phone, cost_count,
  state, status, due_at, accepted_at) VALUES `;
const ROW = `('sms',?,?,NULL,?,?,?,?,?,?,?,?,?,'sms','',?,'queued','accepted',?,?)`;

/** Inserts a batch's SMS rows; the caller holds the transaction. */
export function smsInserter(db: Db): (batch: AcceptedBatch) => void {
  const statements = new Map<number, ReturnType<Db['prepare']>>();
  const statementFor = (rows: number) => {
    let s = statements.get(rows);
    if (!s) {
      s = db.prepare(COLUMNS + Array.from({ length: rows }, () => ROW).join(','));
      statements.set(rows, s);
    }
    return s;
  };
  return (batch) => {
    const { messages, accountId, sessionNo, acceptedAt } = batch;
    for (let i = 0; i < messages.length; i += CHUNK) {
      const chunk = messages.slice(i, i + CHUNK);
      const values: unknown[] = [];
      for (const m of chunk) {
        values.push(
          accountId,
          sessionNo,
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
          acceptedAt,
          acceptedAt,
        );
      }
      statementFor(chunk.length).run(values);
    }
  };
}
