import { concatText } from '../../domain/messages/concat.js';
import type { AcceptedBatch } from '../../domain/messages/message.js';
import { INSERT_COLUMNS } from '../rows/messages.js';
import type { Db } from './database.js';
import { multiRowInsert, ROWS_PER_INSERT as CHUNK } from './multi-row.js';

// An SMPP submit names the bind its receipt goes back to and, for a part the ESME split itself,
// its place in the whole: written with the row, not by an UPDATE after it.
const COLUMNS = `INSERT INTO messages (${INSERT_COLUMNS}, receipt_to, concat, expires_at) VALUES `;
const ROW = `('sms',?,?,NULL,?,?,?,?,?,?,?,?,?,'sms','',?,'queued','accepted',?,?,?,?,?)`;

/** Inserts a batch's SMS rows; the caller holds the transaction. */
export function smsInserter(db: Db): (batch: AcceptedBatch) => void {
  const statementFor = multiRowInsert(db, COLUMNS, ROW);
  return (batch) => {
    const { messages, accountId, sessionNo, acceptedAt } = batch;
    const receiptTo = batch.receiptTo ?? null;
    const concat = batch.concat ? concatText(batch.concat) : null;
    const dueAt = batch.dueAt ?? acceptedAt;
    const expiresAt = batch.expiresAt ?? null;
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
          m.dueAt ?? dueAt,
          acceptedAt,
          receiptTo,
          concat,
          expiresAt,
        );
      }
      statementFor(chunk.length).run(values);
    }
  };
}
