import type { AcceptedBatch } from '../../domain/messages/message.js';
import { INSERT_COLUMNS } from '../rows/messages.js';
import type { Db } from './database.js';
import { multiRowInsert, ROWS_PER_INSERT as CHUNK } from './multi-row.js';

const COLUMNS = `INSERT INTO messages (${INSERT_COLUMNS}) VALUES `;
const ROW = `('sms',?,?,NULL,?,?,?,?,?,?,?,?,?,'sms','',?,'queued','accepted',?,?)`;

/** Inserts a batch's SMS rows; the caller holds the transaction. */
export function smsInserter(db: Db): (batch: AcceptedBatch) => void {
  const statementFor = multiRowInsert(db, COLUMNS, ROW);
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
