import type { ReceiptResult } from '../../domain/receipts/receipt.js';
import type { QueueStats, SessionMessage, SessionView } from '../../domain/views/views.js';
import type { Db } from './database.js';

/** Sessions and the dispatch queue as operators see them. */
export function sqliteSessions(db: Db) {
  const session = db.prepare(
    'SELECT session_no, account_id, accepted_count, created_at FROM sessions WHERE session_no = ?',
  );
  const messages = db.prepare(
    `SELECT id, phone, route, body, cost_count, state, status, attempts, last_error, upstream_id,
       accepted_at, submitted_at, receipt_result, receipt_code, receipt_desc, receipt_time, user_id
     FROM messages WHERE session_no = ? ORDER BY id LIMIT ?`,
  );
  // Both read the partial index on due_at: queued messages and claims under a lease.
  const depth = db.prepare('SELECT count(*) FROM messages WHERE due_at IS NOT NULL').pluck();
  const oldest = db.prepare('SELECT min(due_at) FROM messages WHERE due_at <= ?').pluck();

  return {
    async queueStats(now: number): Promise<QueueStats> {
      const min = oldest.get(now) as number | null;
      return { depth: depth.get() as number, oldestDueAt: min ?? undefined };
    },
    async sessionView(
      sessionNo: string,
      accountId: number | undefined,
      limit: number,
    ): Promise<SessionView | undefined> {
      const s = session.get(sessionNo) as SessionRow | undefined;
      if (!s || (accountId !== undefined && s.account_id !== accountId)) return undefined;
      const rows = messages.all(sessionNo, limit) as MessageRow[];
      return {
        sessionNo: s.session_no,
        accountId: s.account_id,
        acceptedCount: s.accepted_count,
        createdAt: s.created_at,
        messages: rows.map(toMessage),
      };
    },
  };
}

interface SessionRow {
  session_no: string;
  account_id: number;
  accepted_count: number;
  created_at: number;
}

interface MessageRow {
  id: number;
  phone: string;
  route: string;
  body: string;
  cost_count: number;
  state: string;
  status: string;
  attempts: number;
  last_error: string | null;
  upstream_id: string | null;
  accepted_at: number;
  submitted_at: number | null;
  receipt_result: ReceiptResult | null;
  receipt_code: string | null;
  receipt_desc: string | null;
  receipt_time: number | null;
  user_id: string;
}

function toMessage(r: MessageRow): SessionMessage {
  return {
    id: r.id,
    phone: r.phone,
    route: r.route,
    text: r.body,
    costCount: r.cost_count,
    state: r.state,
    status: r.status,
    attempts: r.attempts,
    lastError: r.last_error ?? '',
    upstreamId: r.upstream_id ?? '',
    acceptedAt: r.accepted_at,
    submittedAt: r.submitted_at ?? undefined,
    receiptResult: r.receipt_result ?? undefined,
    receiptCode: r.receipt_code ?? '',
    receiptDesc: r.receipt_desc ?? '',
    receiptTime: r.receipt_time ?? undefined,
    userId: r.user_id,
  };
}
