import type { BusinessMessageView } from '../../domain/messages/message.js';
import type { ReceiptPerPhone } from '../../domain/receipts/receipt.js';
import {
  RECEIPT_COLUMNS,
  receiptOfValues,
  toBusinessView,
  type BusinessRow,
  type EventRow,
} from '../rows/receipts.js';
import type { Db } from './database.js';

export function sqliteReceipts(db: Db) {
  const byMessageId = db.prepare(
    `SELECT id, message_id, account_id, business_phone, phone, type, body, route, status, attempts, accepted_at,
       upstream_id
     FROM messages WHERE message_id = ?`,
  );
  const events = db.prepare(
    'SELECT status, at, code, descr FROM message_events WHERE message_ref = ? ORDER BY rowid',
  );
  const states = db.prepare('SELECT state, count(*) AS n FROM messages GROUP BY state');

  return {
    async receiptsForSessions(accountId: number, sessionNos: readonly string[]) {
      const result = new Map<string, ReceiptPerPhone[]>();
      if (sessionNos.length === 0) return result;
      const marks = sessionNos.map(() => '?').join(',');
      const known = db
        .prepare(
          `SELECT session_no FROM sessions WHERE account_id = ? AND session_no IN (${marks})`,
        )
        .pluck()
        .all(accountId, ...sessionNos) as string[];
      for (const s of known) result.set(s, []);
      if (known.length === 0) return result;
      const rows = db
        .prepare(
          `SELECT ${RECEIPT_COLUMNS} FROM messages
           WHERE session_no IN (${known.map(() => '?').join(',')}) AND state = 'final' ORDER BY id`,
        )
        .raw(true)
        // Row by row: an answer of 100,000 receipts never holds the rows and the receipts at once.
        .iterate(...known) as IterableIterator<unknown[]>;
      for (const v of rows) result.get(v[0] as string)?.push(receiptOfValues(v));
      return result;
    },
    async getBusinessMessage(messageId: string): Promise<BusinessMessageView | undefined> {
      const m = byMessageId.get(messageId) as BusinessRow | undefined;
      if (!m) return undefined;
      return toBusinessView(m, events.all(m.id) as EventRow[]);
    },
    async countByState() {
      const out: Record<string, number> = {};
      for (const r of states.all() as { state: string; n: number }[]) out[r.state] = r.n;
      return out;
    },
  };
}
