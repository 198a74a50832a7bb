/** Rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { BusinessPhone } from '../../domain/accounts/account.js';

export interface PhoneRow {
  account_id: number;
  business_phone: string;
  channel: string;
  created_at: number;
  phone_number_id: string | null;
  access_token: string | null;
}

export const PHONE_COLUMNS =
  'account_id, business_phone, channel, created_at, phone_number_id, access_token';

export function toBusinessPhone(r: PhoneRow): BusinessPhone {
  return {
    accountId: r.account_id,
    businessPhone: r.business_phone,
    channel: r.channel,
    createdAt: r.created_at,
    ...(r.phone_number_id === null ? {} : { phoneNumberId: r.phone_number_id }),
    ...(r.access_token === null ? {} : { accessToken: r.access_token }),
  };
}
