import { TemplateStatus } from '../../domain/templates/template.js';
import {
  PHONE_COLUMNS,
  PHONE_UPDATE,
  phoneValues,
  toBusinessPhone,
  type PhoneRow,
} from '../rows/accounts.js';
import type { AccountStore } from '../../domain/ports.js';
import type { Pool } from './database.js';

/** An account's own default region for numbers written without a country code. */
function postgresAccountRegions(
  pool: Pool,
): Pick<AccountStore, 'accountRegion' | 'setAccountRegion'> {
  return {
    async accountRegion(accountId) {
      const r = await pool.query<{ default_region: string | null }>(
        'SELECT default_region FROM accounts WHERE account_id = $1',
        [accountId],
      );
      return r.rows[0]?.default_region ?? undefined;
    },
    async setAccountRegion(accountId, region) {
      const r = await pool.query('UPDATE accounts SET default_region = $1 WHERE account_id = $2', [
        region ?? null,
        accountId,
      ]);
      return r.rowCount === 1;
    },
  };
}

export function postgresAccounts(pool: Pool): AccountStore {
  return {
    async ensureAccount(accountId, now) {
      const r = await pool.query(
        'INSERT INTO accounts (account_id, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING',
        [accountId, now],
      );
      return r.rowCount === 1;
    },
    async accountExists(accountId) {
      const r = await pool.query('SELECT 1 FROM accounts WHERE account_id = $1', [accountId]);
      return r.rowCount === 1;
    },
    ...postgresAccountRegions(pool),
    async countApiKeys() {
      const r = await pool.query<{ n: number }>(
        "SELECT count(*) AS n FROM api_keys WHERE kind = 'api'",
      );
      return r.rows[0]?.n ?? 0;
    },
    ...postgresSenders(pool),
    async addBusinessPhone(p) {
      // xmax is 0 only on a row this statement inserted, not on one it updated.
      const r = await pool.query<{ inserted: boolean }>(
        `INSERT INTO business_phones (${PHONE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (account_id, business_phone) DO UPDATE SET ${PHONE_UPDATE}
         RETURNING (xmax = 0) AS inserted`,
        phoneValues(p),
      );
      return r.rows[0]?.inserted === true;
    },
    async getBusinessPhone(accountId, businessPhone) {
      const r = await pool.query<PhoneRow>(
        `SELECT ${PHONE_COLUMNS} FROM business_phones WHERE account_id = $1 AND business_phone = $2`,
        [accountId, businessPhone],
      );
      const row = r.rows[0];
      return row && toBusinessPhone(row);
    },
  };
}

/** The senders an account may use: registered ids, and its approved signatures. */
function postgresSenders(pool: Pool): Pick<AccountStore, 'addSenderId' | 'hasSenderIds'> {
  return {
    async addSenderId(accountId, senderId, now) {
      const r = await pool.query(
        `INSERT INTO sender_ids (account_id, sender_id, created_at) VALUES ($1, $2, $3)
         ON CONFLICT DO NOTHING`,
        [accountId, senderId, now],
      );
      return r.rowCount === 1;
    },
    async hasSenderIds(accountId, senderIds) {
      if (senderIds.length === 0) return new Set();
      const r = await pool.query<{ sender_id: string }>(
        // An approved signature (UCloud dialect) is a sender of its account as a registered id is.
        `SELECT sender_id FROM sender_ids WHERE account_id = $1 AND sender_id = ANY($2::text[])
         UNION SELECT sig_content FROM signatures
         WHERE account_id = $1 AND sig_content = ANY($2::text[]) AND status = ${TemplateStatus.Approved}`,
        [accountId, senderIds],
      );
      return new Set(r.rows.map((row) => row.sender_id));
    },
  };
}
