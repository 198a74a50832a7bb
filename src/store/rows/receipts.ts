import type { FallbackState, FallbackView } from '../../domain/business-messages/conversation.js';
/** Rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { BusinessMessageView } from '../../domain/messages/message.js';
import type { SessionReport } from '../../domain/views/views.js';
import type { ReceiptPerPhone, ReceiptResult } from '../../domain/receipts/receipt.js';

export interface ReceiptRow {
  phone: string;
  cost_count: number;
  receipt_result: ReceiptResult;
  receipt_code: string;
  receipt_desc: string;
  receipt_time: number;
  user_id: string;
}

/** ReceiptRow's columns in order, for adapters that read rows as arrays (cheaper than objects). */
export const RECEIPT_COLUMNS =
  'phone, cost_count, receipt_result, receipt_code, receipt_desc, receipt_time, user_id';

/** A ReceiptRow read as an array of RECEIPT_COLUMNS, in that order. */
export type ReceiptValues = [
  phone: string,
  costCount: number,
  result: ReceiptResult,
  code: string,
  desc: string,
  time: number,
  userId: string,
];

/**
 * Parameters: session, account, now. A session's messages with a receipt, and those held for a
 * later SendAt, in one pass over the session's rows (oldest first): GetUSMSSendReceipt answers
 * both, and a second statement for the held would read every row of the session again.
 */
export const sessionReportSql = (p: (n: number) => string): string =>
  `SELECT ${RECEIPT_COLUMNS}, state, due_at, expires_at, accepted_at FROM messages
   WHERE session_no = ${p(1)} AND account_id = ${p(2)}
     AND (state = 'final' OR (state = 'queued' AND attempts = 0 AND due_at > ${p(3)}))
   ORDER BY id`;

/** A row of sessionReportSql, read as an array. */
export type SessionReportValues = [
  ...ReceiptValues,
  state: string,
  dueAt: number | string | null,
  expiresAt: number | string | null,
  acceptedAt: number | string,
];

/** The rows of sessionReportSql, split into receipts and held messages. */
export function sessionReportOf(
  sessionNo: string,
  rows: Iterable<SessionReportValues>,
): SessionReport {
  const out: SessionReport = { receipts: [], held: [] };
  for (const v of rows) {
    if (v[7] === 'final') {
      // The first seven columns are RECEIPT_COLUMNS, in their order.
      out.receipts.push(receiptOfValues(v.slice(0, 7) as ReceiptValues));
      continue;
    }
    // Held rows are queued with a due time (the statement's own condition).
    out.held.push({
      sessionNo,
      messageId: undefined,
      phone: v[0],
      dueAt: Number(v[8]),
      expiresAt: v[9] === null ? undefined : Number(v[9]),
      acceptedAt: Number(v[10]),
    });
  }
  return out;
}

export function receiptOfValues(v: ReceiptValues): ReceiptPerPhone {
  // By index: every receipt of a session is read this way (see fromClaimValues).
  return {
    Phone: v[0],
    CostCount: v[1],
    ReceiptResult: v[2],
    ReceiptCode: v[3],
    ReceiptDesc: v[4],
    ReceiptTime: v[5],
    UserId: v[6],
  };
}

export interface BusinessRow {
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
  upstream_id: string | null;
  fallback_state: FallbackState | null;
  fallback_session_no: string | null;
  fallback_phone: string | null;
  fallback_reason: string | null;
}

/** A business message with its fallback, by MessageId (`$1` or `?`, as the dialect writes it). */
/**
 * A business message by its id; with `ownerParam`, only the account's own. The owner is part of
 * the statement, so another account's message is read like one that does not exist: no row, and
 * no history read after it (its timing tells nothing).
 */
export function businessViewQuery(param: string, ownerParam?: string): string {
  return `SELECT m.id, m.message_id, m.account_id, m.business_phone, m.phone, m.type, m.body, m.route,
      m.status, m.attempts, m.accepted_at, m.upstream_id, f.state AS fallback_state,
      f.session_no AS fallback_session_no, f.phone AS fallback_phone, f.reason AS fallback_reason
    FROM messages m LEFT JOIN business_fallbacks f ON f.message_id = m.message_id
    WHERE m.message_id = ${param}${ownerParam ? ` AND m.account_id = ${ownerParam}` : ''}`;
}

function fallbackOf(m: BusinessRow): FallbackView | undefined {
  if (m.fallback_state === null) return undefined;
  return {
    state: m.fallback_state,
    reason: m.fallback_reason ?? '',
    ...(m.fallback_session_no === null ? {} : { sessionNo: m.fallback_session_no }),
    ...(m.fallback_phone === null ? {} : { phone: m.fallback_phone }),
  };
}

export interface EventRow {
  status: string;
  at: number;
  code: string;
  descr: string;
}

/** A business message and its history as the admin API shows it. */
export function toBusinessView(m: BusinessRow, events: readonly EventRow[]): BusinessMessageView {
  const fallback = fallbackOf(m);
  return {
    messageId: m.message_id,
    accountId: m.account_id,
    businessPhone: m.business_phone,
    to: m.phone,
    type: m.type,
    content: m.body,
    route: m.route,
    ...(m.upstream_id ? { upstreamId: m.upstream_id } : {}),
    status: m.status,
    attempts: m.attempts,
    acceptedAt: m.accepted_at,
    history: events.map((e) => ({ status: e.status, at: e.at, code: e.code, desc: e.descr })),
    ...(fallback ? { fallback } : {}),
  };
}
