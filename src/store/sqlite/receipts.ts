import type { BusinessMessageView, StatusEvent } from '../../domain/messages/message.js';
import type { ReceiptPerPhone, ReceiptResult } from '../../domain/receipts/receipt.js';
import type { Db } from './database.js';

export function sqliteReceipts(db: Db) {
  const byMessageId = db.prepare(
    `SELECT id, message_id, account_id, business_phone, phone, type, body, route, status, attempts, accepted_at
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
          `SELECT session_no, phone, cost_count, receipt_result, receipt_code, receipt_desc, receipt_time, user_id
           FROM messages WHERE session_no IN (${known.map(() => '?').join(',')}) AND state = 'final' ORDER BY id`,
        )
        .all(...known) as ReceiptRow[];
      for (const r of rows) result.get(r.session_no)?.push(toReceipt(r));
      return result;
    },
    async getBusinessMessage(messageId: string): Promise<BusinessMessageView | undefined> {
      const m = byMessageId.get(messageId) as BusinessRow | undefined;
      if (!m) return undefined;
      const history = (events.all(m.id) as EventRow[]).map((e): StatusEvent => ({
        status: e.status,
        at: e.at,
        code: e.code,
        desc: e.descr,
      }));
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
        history,
      };
    },
    async countByState() {
      const out: Record<string, number> = {};
      for (const r of states.all() as { state: string; n: number }[]) out[r.state] = r.n;
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
