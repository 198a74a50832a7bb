import type { BusinessMessageView } from '../../domain/messages/message.js';
import type { ReceiptPerPhone } from '../../domain/receipts/receipt.js';
import {
  toBusinessView,
  RECEIPT_COLUMNS,
  toReceipt,
  type BusinessRow,
  type EventRow,
  type ReceiptRow,
} from '../rows/receipts.js';
import type { Pool } from './database.js';

export function postgresReceipts(pool: Pool) {
  return {
    async receiptsForSessions(accountId: number, sessionNos: readonly string[]) {
      const result = new Map<string, ReceiptPerPhone[]>();
      if (sessionNos.length === 0) return result;
      // Sessions of this account only: another account's SessionNo answers nothing.
      const known = await pool.query<{ session_no: string }>(
        'SELECT session_no FROM sessions WHERE account_id = $1 AND session_no = ANY($2::text[])',
        [accountId, sessionNos],
      );
      const sessions = sessionNos.filter((s) => known.rows.some((k) => k.session_no === s));
      for (const s of sessions) result.set(s, []);
      if (sessions.length === 0) return result;
      const rows = await pool.query<ReceiptRow>(
        `SELECT ${RECEIPT_COLUMNS}
         FROM messages WHERE session_no = ANY($1::text[]) AND state = 'final' ORDER BY id`,
        [sessions],
      );
      for (const r of rows.rows) result.get(r.session_no)?.push(toReceipt(r));
      return result;
    },
    async getBusinessMessage(messageId: string): Promise<BusinessMessageView | undefined> {
      const r = await pool.query<BusinessRow>(
        `SELECT id, message_id, account_id, business_phone, phone, type, body, route, status,
           attempts, accepted_at, upstream_id
         FROM messages WHERE message_id = $1`,
        [messageId],
      );
      const m = r.rows[0];
      if (!m) return undefined;
      const events = await pool.query<EventRow>(
        'SELECT status, at, code, descr FROM message_events WHERE message_ref = $1 ORDER BY id',
        [m.id],
      );
      return toBusinessView(m, events.rows);
    },
    async countByState() {
      const r = await pool.query<{ state: string; n: number }>(
        'SELECT state, count(*) AS n FROM messages GROUP BY state',
      );
      const out: Record<string, number> = {};
      for (const row of r.rows) out[row.state] = row.n;
      return out;
    },
  };
}
