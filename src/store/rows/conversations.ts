/** Rows of the conversation tables as both adapters read and write them (same SQL but for `?`/`$n`). */
import type {
  DueFallback,
  FallbackOutcome,
  FallbackSpec,
} from '../../domain/business-messages/conversation.js';
import type { AcceptedBusinessMessage } from '../../domain/messages/message.js';

export interface DueFallbackRow {
  message_id: string;
  account_id: number;
  template_id: string;
  params: string;
  sender_id: string;
  due_at: number | null;
  phone: string;
  e164: string;
  business_phone: string;
  status: string;
}

/**
 * Pending fallbacks whose message ended (failed, unknown, delivered: each settles them), or whose
 * After has passed; the oldest first. `p(n)` writes the dialect's n-th parameter: now, then the limit.
 */
export function dueFallbacksQuery(p: (n: number) => string): string {
  return `SELECT f.message_id, f.account_id, f.template_id, f.params, f.sender_id, f.due_at,
      m.phone, m.e164, m.business_phone, m.status
    FROM business_fallbacks f JOIN messages m ON m.message_id = f.message_id
    WHERE f.state = 'pending'
      AND (m.status IN ('failed', 'unknown', 'delivered', 'read') OR f.due_at <= ${p(1)})
    ORDER BY f.created_at LIMIT ${p(2)}`;
}

export function toDueFallback(r: DueFallbackRow): DueFallback {
  // params is the JSON array of strings this module wrote.
  const params = JSON.parse(r.params) as string[];
  return {
    messageId: r.message_id,
    accountId: r.account_id,
    templateId: r.template_id,
    params,
    senderId: r.sender_id,
    to: r.phone,
    e164: r.e164,
    businessPhone: r.business_phone,
    status: r.status,
    ...(r.due_at === null ? {} : { dueAt: r.due_at }),
  };
}

export const INSERT_FALLBACK_COLUMNS =
  'message_id, account_id, template_id, params, sender_id, due_at, state, reason, created_at';

/** A new fallback's values, in INSERT_FALLBACK_COLUMNS order: pending, no reason yet. */
export function fallbackValues(m: AcceptedBusinessMessage, f: FallbackSpec): unknown[] {
  // After counts from when the message is due: its SendAt, else its acceptance.
  const dueAt = f.afterS === undefined ? null : (m.dueAt ?? m.acceptedAt) + f.afterS * 1000;
  const params = JSON.stringify(f.params);
  return [
    m.messageId,
    m.accountId,
    f.templateId,
    params,
    f.senderId,
    dueAt,
    'pending',
    '',
    m.acceptedAt,
  ];
}

/** How a settled fallback is written: state, session_no, phone, reason (then settled_at, id). */
export function settledValues(o: FallbackOutcome): unknown[] {
  const sms = o.state === 'sent' ? o.batch.messages[0] : undefined;
  return [o.state, o.state === 'sent' ? o.batch.sessionNo : null, sms?.phone ?? null, o.reason];
}

/** The window upsert: a later message moves it, an earlier one (Meta does not keep order) not. */
export function windowUpsert(p: (n: number) => string, greatest: 'max' | 'GREATEST'): string {
  return `INSERT INTO conversation_windows (business_phone, contact, last_inbound_at)
    VALUES (${p(1)}, ${p(2)}, ${p(3)})
    ON CONFLICT (business_phone, contact) DO UPDATE
    SET last_inbound_at = ${greatest}(conversation_windows.last_inbound_at, excluded.last_inbound_at)`;
}
