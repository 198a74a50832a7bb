import type { FallbackState, FallbackView } from '../../domain/business-messages/conversation.js';
/** Rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { BusinessMessageView } from '../../domain/messages/message.js';
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

export function toReceipt(r: ReceiptRow): ReceiptPerPhone {
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
