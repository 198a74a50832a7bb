import { TemplateStatus } from '../../domain/templates/template.js';
import {
  PHONE_COLUMNS,
  PHONE_UPDATE,
  phoneValues,
  toBusinessPhone,
  type PhoneRow,
} from '../rows/accounts.js';
import type { AccountStore } from '../../domain/ports.js';
import type { Db } from './database.js';

/** An account's own default region for numbers written without a country code. */
function sqliteAccountRegions(db: Db): Pick<AccountStore, 'accountRegion' | 'setAccountRegion'> {
  const select = db
    .prepare<unknown[], string | null>('SELECT default_region FROM accounts WHERE account_id = ?')
    .pluck();
  const update = db.prepare('UPDATE accounts SET default_region = ? WHERE account_id = ?');
  return {
    async accountRegion(accountId) {
      return select.get(accountId) ?? undefined;
    },
    async setAccountRegion(accountId, region) {
      return update.run(region ?? null, accountId).changes > 0;
    },
  };
}

export function sqliteAccounts(db: Db): AccountStore {
  const insertAccount = db.prepare(
    'INSERT INTO accounts (account_id, created_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
  );
  const selectAccount = db.prepare('SELECT 1 FROM accounts WHERE account_id = ?').pluck();
  const countKeys = db
    .prepare<unknown[], number>("SELECT count(*) FROM api_keys WHERE kind = 'api'")
    .pluck();
  const insertPhone = db.prepare(
    `INSERT INTO business_phones (${PHONE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (account_id, business_phone) DO UPDATE SET ${PHONE_UPDATE}`,
  );
  const selectPhone = db.prepare<unknown[], PhoneRow>(
    `SELECT ${PHONE_COLUMNS} FROM business_phones WHERE account_id = ? AND business_phone = ?`,
  );

  return {
    async ensureAccount(accountId, now) {
      return insertAccount.run(accountId, now).changes > 0;
    },
    async accountExists(accountId) {
      return selectAccount.get(accountId) !== undefined;
    },
    ...sqliteAccountRegions(db),
    async countApiKeys() {
      return countKeys.get() ?? 0;
    },
    ...sqliteSenders(db),
    async addBusinessPhone(p) {
      const existed = selectPhone.get(p.accountId, p.businessPhone) !== undefined;
      insertPhone.run(...phoneValues(p));
      return !existed;
    },
    async getBusinessPhone(accountId, businessPhone) {
      const row = selectPhone.get(accountId, businessPhone);
      return row && toBusinessPhone(row);
    },
  };
}

/** The senders an account may use: registered ids, and its approved signatures. */
function sqliteSenders(db: Db): Pick<AccountStore, 'addSenderId' | 'hasSenderIds'> {
  const insertSender = db.prepare(
    'INSERT INTO sender_ids (account_id, sender_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  );
  // An approved signature (UCloud dialect) is a sender of its account as a registered id is.
  const selectSender = db
    .prepare(
      `SELECT 1 FROM sender_ids WHERE account_id = ? AND sender_id = ?
       UNION ALL SELECT 1 FROM signatures WHERE account_id = ? AND sig_content = ? AND status = ${TemplateStatus.Approved}`,
    )
    .pluck();
  return {
    async addSenderId(accountId, senderId, now) {
      return insertSender.run(accountId, senderId, now).changes > 0;
    },
    async hasSenderIds(accountId, senderIds) {
      return new Set(
        senderIds.filter((s) => selectSender.get(accountId, s, accountId, s) !== undefined),
      );
    },
  };
}
