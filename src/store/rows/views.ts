/** Rows of the operator views as both adapters read them (same column names in both). */
import type { ReceiptResult } from '../../domain/receipts/receipt.js';
import type {
  Conversation,
  HeldFilter,
  HeldMessage,
  InboxView,
  SessionMessage,
  SessionResults,
  SessionSummary,
  SessionView,
} from '../../domain/views/views.js';
import { INBOX_COLUMNS, fromRow, type InboxRow } from './inbox.js';
import { paramList } from './params.js';

/** An inbox entry (sim_inbox i) with its message's account and receipt (messages m). */
export const VIEW_COLUMNS = `${INBOX_COLUMNS.split(',')
  .map((c) => `i.${c.trim()}`)
  .join(', ')}, m.account_id, m.accepted_at, m.receipt_result, m.receipt_time`;

export interface ViewRow extends InboxRow {
  account_id: number;
  accepted_at: number;
  receipt_result: ReceiptResult | null;
  receipt_time: number | null;
}

export function toView(r: ViewRow): InboxView {
  return {
    ...fromRow(r),
    id: r.id,
    accountId: r.account_id,
    acceptedAt: r.accepted_at,
    receiptResult: r.receipt_result ?? undefined,
    receiptTime: r.receipt_time ?? undefined,
  };
}

export interface ConversationRow {
  phone: string;
  n: number;
  last_id: number;
  last_at: number;
}

export function toConversation(r: ConversationRow): Conversation {
  return { phone: r.phone, count: r.n, lastId: r.last_id, lastDeliveredAt: r.last_at };
}

export interface SessionRow {
  session_no: string;
  account_id: number;
  accepted_count: number;
  created_at: number;
}

export const SESSION_MESSAGE_COLUMNS = `id, phone, route, upstream, body, cost_count, state, status, attempts,
  last_error, upstream_id, accepted_at, submitted_at, receipt_result, receipt_code, receipt_desc,
  receipt_time, user_id`;

export interface SessionMessageRow {
  id: number;
  phone: string;
  route: string;
  upstream: string;
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

/** Counts per receipt result, as both stores read them (a NULL result: not final yet). */
export interface ResultCountRow {
  result: string | null;
  n: number;
}

export const RESULT_COUNTS_SQL = 'SELECT receipt_result AS result, count(*) AS n FROM messages';

export function toSessionSummary(s: SessionRow, counts: readonly ResultCountRow[]): SessionSummary {
  const results: SessionResults = { Success: 0, Fail: 0, SubmitFail: 0, Unknow: 0, pending: 0 };
  for (const c of counts) {
    // receipt_result holds a ReceiptResult or NULL; `in` below skips anything else.
    const key = (c.result ?? 'pending') as keyof SessionResults;
    if (key in results) results[key] += c.n;
  }
  return {
    sessionNo: s.session_no,
    accountId: s.account_id,
    acceptedCount: s.accepted_count,
    createdAt: s.created_at,
    results,
  };
}

export function toSessionView(
  s: SessionRow,
  counts: readonly ResultCountRow[],
  rows: readonly SessionMessageRow[],
): SessionView {
  return { ...toSessionSummary(s, counts), messages: rows.map(toSessionMessage) };
}

function toSessionMessage(r: SessionMessageRow): SessionMessage {
  return {
    id: r.id,
    phone: r.phone,
    route: r.route,
    upstream: r.upstream,
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

/** Messages held for a later SendAt, read on the due_at index: `now` is the dialect's parameter. */
export const HELD_SQL = (now: string): string =>
  `SELECT count(*) FROM messages WHERE due_at > ${now} AND state = 'queued' AND attempts = 0`;

const HELD_COLUMNS = `id, kind, account_id, session_no, message_id, phone, e164, body, due_at,
  expires_at, accepted_at`;

export interface HeldRow {
  id: number;
  kind: 'sms' | 'business';
  account_id: number;
  session_no: string | null;
  message_id: string | null;
  phone: string;
  e164: string;
  body: string;
  due_at: number;
  expires_at: number | null;
  accepted_at: number;
}

/**
 * Held messages in due order, then id: a session's read on its index, the rest on the due_at
 * index from now on (as HELD_SQL counts them). `p(n)` writes the dialect's n-th placeholder.
 */
export function heldSql(
  p: (n: number) => string,
  f: HeldFilter,
): { sql: string; values: unknown[] } {
  const { values, param } = paramList(p);
  const where = [`due_at > ${param(f.now)}`, "state = 'queued'", 'attempts = 0'];
  if (f.accountId !== undefined) where.push(`account_id = ${param(f.accountId)}`);
  if (f.sessionNo !== undefined) where.push(`session_no = ${param(f.sessionNo)}`);
  if (f.dueBefore !== undefined) where.push(`due_at <= ${param(f.dueBefore)}`);
  if (f.after) {
    // Each placeholder its own value: SQLite's `?` are positional.
    const { dueAt, id } = f.after;
    where.push(`(due_at > ${param(dueAt)} OR (due_at = ${param(dueAt)} AND id > ${param(id)}))`);
  }
  const sql = `SELECT ${HELD_COLUMNS} FROM messages WHERE ${where.join(' AND ')}
    ORDER BY due_at, id LIMIT ${param(f.limit)}`;
  return { sql, values };
}

export function toHeld(r: HeldRow): HeldMessage {
  return {
    id: r.id,
    kind: r.kind,
    accountId: r.account_id,
    sessionNo: r.session_no ?? undefined,
    messageId: r.message_id ?? undefined,
    phone: r.phone,
    e164: r.e164,
    body: r.body,
    dueAt: r.due_at,
    expiresAt: r.expires_at ?? undefined,
    acceptedAt: r.accepted_at,
  };
}
