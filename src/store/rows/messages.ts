/** Rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import { concatOf } from '../../domain/messages/concat.js';
import type { ClaimedMessage, IdempotencyRecord } from '../../domain/messages/message.js';

/** The concat field of a claimed message, present only for an ESME's own part. */
function withConcat(text: string | null): Pick<ClaimedMessage, 'concat'> {
  const concat = concatOf(text);
  return concat ? { concat } : {};
}

export interface IdemRow {
  account_id: number;
  idem_key: string;
  request_hash: string;
  response: string;
  created_at: number;
}

export function fromIdemRow(r: IdemRow): IdempotencyRecord {
  return {
    accountId: r.account_id,
    key: r.idem_key,
    requestHash: r.request_hash,
    response: r.response,
    createdAt: r.created_at,
  };
}

export interface ClaimRow {
  id: number;
  kind: 'sms' | 'business';
  account_id: number;
  route: string;
  attempts: number;
  e164: string;
  sender_id: string;
  extend_code: string;
  body: string;
  message_id: string | null;
  business_phone: string;
  type: string;
  concat: string | null;
  expires_at: number | null;
}

/**
 * The columns a new message row is written with, in this order, by every INSERT of both
 * adapters (batch SMS, business messages); the rest take their defaults.
 */
export const INSERT_COLUMNS = `kind, account_id, session_no, message_id, phone, e164, route,
  template_id, params, sender_id, extend_code, user_id, body, type, business_phone, cost_count,
  state, status, due_at, accepted_at`;

/**
 * A claim leaves a queued message whose validity passed to the expiry pass (expireQueued): it is
 * not handed upstream. One claimed before (a lease that ran out mid-submit) may have been, so it
 * is claimed again as before. `now` is the dialect's parameter holding the time.
 */
export function notExpired(now: string): string {
  return `(expires_at IS NULL OR expires_at > ${now} OR state <> 'queued')`;
}

/** ClaimRow's columns in order, for adapters that read rows as arrays (cheaper than objects). */
export const CLAIM_COLUMNS =
  'id, kind, account_id, route, attempts, e164, sender_id, extend_code, body, message_id, business_phone, type, concat, expires_at';

/** A ClaimRow read as an array of CLAIM_COLUMNS, in that order. */
export type ClaimValues = [
  id: number,
  kind: 'sms' | 'business',
  accountId: number,
  route: string,
  attempts: number,
  e164: string,
  senderId: string,
  extendCode: string,
  body: string,
  messageId: string | null,
  businessPhone: string,
  type: string,
  concat: string | null,
  expiresAt: number | null,
];

// By index, into one literal: the claim path reads every message this way, and destructuring or
// spreading here cost a few per cent of the dispatcher's time (bench/RESULTS.md, session 16).
export function fromClaimValues(v: ClaimValues): ClaimedMessage {
  return {
    id: v[0],
    kind: v[1],
    accountId: v[2],
    route: v[3],
    attempts: v[4],
    e164: v[5],
    senderId: v[6],
    extendCode: v[7],
    body: v[8],
    messageId: v[9] ?? undefined,
    businessPhone: v[10],
    type: v[11],
    expiresAt: v[13] ?? undefined,
    ...withConcat(v[12]),
  };
}

export function fromClaimRow(r: ClaimRow): ClaimedMessage {
  return {
    id: r.id,
    kind: r.kind,
    accountId: r.account_id,
    route: r.route,
    attempts: r.attempts,
    e164: r.e164,
    senderId: r.sender_id,
    extendCode: r.extend_code,
    body: r.body,
    messageId: r.message_id ?? undefined,
    businessPhone: r.business_phone,
    type: r.type,
    expiresAt: r.expires_at ?? undefined,
    ...withConcat(r.concat),
  };
}
