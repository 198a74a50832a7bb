/** Rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { BusinessPhone } from '../../domain/accounts/account.js';

export interface PhoneRow {
  account_id: number;
  business_phone: string;
  channel: string;
  created_at: number;
  phone_number_id: string | null;
  access_token: string | null;
  /** 1 on, 0 off, null the channel's default. */
  window_guard: number | null;
}

export const PHONE_COLUMNS =
  'account_id, business_phone, channel, created_at, phone_number_id, access_token, window_guard';

/** A business phone's values in PHONE_COLUMNS order. */
export function phoneValues(p: BusinessPhone): unknown[] {
  const guard = p.windowGuard === undefined ? null : p.windowGuard ? 1 : 0;
  return [
    p.accountId,
    p.businessPhone,
    p.channel,
    p.createdAt,
    p.phoneNumberId ?? null,
    p.accessToken ?? null,
    guard,
  ];
}

/** What registering a phone again changes: all but its account, number and first time. */
export const PHONE_UPDATE = `channel = excluded.channel, phone_number_id = excluded.phone_number_id,
  access_token = excluded.access_token, window_guard = excluded.window_guard`;

export function toBusinessPhone(r: PhoneRow): BusinessPhone {
  return {
    accountId: r.account_id,
    businessPhone: r.business_phone,
    channel: r.channel,
    createdAt: r.created_at,
    ...(r.phone_number_id === null ? {} : { phoneNumberId: r.phone_number_id }),
    ...(r.access_token === null ? {} : { accessToken: r.access_token }),
    ...(r.window_guard === null ? {} : { windowGuard: r.window_guard === 1 }),
  };
}
