/** Rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { ClaimedMessage, IdempotencyRecord } from '../../domain/messages/message.js';

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
  kind: string;
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
}

export function fromClaimRow(r: ClaimRow): ClaimedMessage {
  return {
    id: r.id,
    kind: r.kind as 'sms' | 'business',
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
  };
}
