import type { BusinessMessageView } from '../../domain/messages/message.js';
import type { ReceiptPerPhone, ReceiptResult } from '../../domain/receipts/receipt.js';
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
        `SELECT session_no, phone, cost_count, receipt_result, receipt_code, receipt_desc,
           receipt_time, user_id
         FROM messages WHERE session_no = ANY($1::text[]) AND state = 'final' ORDER BY id`,
        [sessions],
      );
      for (const r of rows.rows) result.get(r.session_no)?.push(toReceipt(r));
      return result;
    },
    async getBusinessMessage(messageId: string): Promise<BusinessMessageView | undefined> {
      const r = await pool.query<BusinessRow>(
        `SELECT id, message_id, account_id, business_phone, phone, type, body, route, status,
           attempts, accepted_at
         FROM messages WHERE message_id = $1`,
        [messageId],
      );
      const m = r.rows[0];
      if (!m) return undefined;
      const events = await pool.query<EventRow>(
        'SELECT status, at, code, descr FROM message_events WHERE message_ref = $1 ORDER BY id',
        [m.id],
      );
      return {
        messageId: m.message_id,
        accountId: m.account_id,
        businessPhone: m.business_phone,
        to: m.phone,
        type: m.type,
        content: m.body,
        route: m.route,
        status: m.status,
        attempts: m.attempts,
        acceptedAt: m.accepted_at,
        history: events.rows.map((e) => ({
          status: e.status,
          at: e.at,
          code: e.code,
          desc: e.descr,
        })),
      };
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

interface ReceiptRow {
  session_no: string;
  phone: string;
  cost_count: number;
  receipt_result: ReceiptResult;
  receipt_code: string;
  receipt_desc: string;
  receipt_time: number;
  user_id: string;
}

function toReceipt(r: ReceiptRow): ReceiptPerPhone {
  return {
    Phone: r.phone,
    CostCount: r.cost_count,
    ReceiptResult: r.receipt_result,
    ReceiptCode: r.receipt_code,
    ReceiptDesc: r.receipt_desc,
    ReceiptTime: r.receipt_time,
    UserId: r.user_id,
  };
}

interface BusinessRow {
  id: number;
  message_id: string;
  account_id: number;
  business_phone: string;
  phone: string;
  type: string;
  body: string;
  route: string;
  status: string;
  attempts: number;
  accepted_at: number;
}

interface EventRow {
  status: string;
  at: number;
  code: string;
  descr: string;
}
