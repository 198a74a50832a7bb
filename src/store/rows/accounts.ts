/** Rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { BusinessPhone } from '../../domain/accounts/account.js';

export interface PhoneRow {
  account_id: number;
  business_phone: string;
  channel: string;
  created_at: number;
}

export function toBusinessPhone(r: PhoneRow): BusinessPhone {
  return {
    accountId: r.account_id,
    businessPhone: r.business_phone,
    channel: r.channel,
    createdAt: r.created_at,
  };
}
