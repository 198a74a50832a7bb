import {
  keywordAction,
  optOutEvent,
  type OptOut,
  type OptOutSettings,
  type OptOutSource,
} from '../../domain/opt-out/opt-out.js';
import type { OptOutStore } from '../../domain/ports.js';
import {
  OPT_OUT_COLUMNS,
  SETTINGS_COLUMNS,
  optOutPage,
  settingsOf,
  type OptOutRow,
  type SettingsRow,
} from '../rows/opt-outs.js';
import type { Db } from './database.js';
import type { SqliteOutbox } from './outbox.js';

export type SqliteOptOuts = ReturnType<typeof sqliteOptOuts>;

/** Adding and removing opt-outs, each with its event: the caller holds the transaction. */
function optOutChanges(db: Db, outbox: SqliteOutbox) {
  const insert = db.prepare(
    `INSERT INTO opt_outs (${OPT_OUT_COLUMNS}) VALUES (?,?,?,?,?) ON CONFLICT DO NOTHING`,
  );
  const remove = db.prepare('DELETE FROM opt_outs WHERE account_id = ? AND phone = ?');

  const add = (list: readonly OptOut[], now: number): string[] =>
    list.flatMap((o) => {
      if (insert.run(o.accountId, o.phone, o.source, o.keyword, o.createdAt).changes === 0)
        return [];
      outbox.emit(optOutEvent('out', { ...o, at: o.createdAt }), now);
      return [o.phone];
    });
  /** Removes opt-outs; `keyword` is the reply that opted back in (START), '' otherwise. */
  const drop = (
    accountId: number,
    phones: readonly string[],
    how: { source: OptOutSource; keyword: string },
    now: number,
  ) =>
    phones.filter((phone) => {
      if (remove.run(accountId, phone).changes === 0) return false;
      outbox.emit(optOutEvent('in', { accountId, phone, ...how, at: now }), now);
      return true;
    });
  return { add, drop };
}

/** Opt-outs and the accounts' keywords; each change with its event, in one transaction. */
export function sqliteOptOuts(db: Db, outbox: SqliteOutbox) {
  const settings = db.prepare<unknown[], SettingsRow>(
    `SELECT ${SETTINGS_COLUMNS} FROM accounts WHERE account_id = ?`,
  );
  const any = db.prepare('SELECT EXISTS (SELECT 1 FROM opt_outs WHERE account_id = ?)').pluck();
  const among = db
    .prepare<unknown[], string>(
      'SELECT phone FROM opt_outs WHERE account_id = ? AND phone IN (SELECT value FROM json_each(?))',
    )
    .pluck();
  const { add, drop } = optOutChanges(db, outbox);
  const settingsOfAccount = (accountId: number) => settingsOf(settings.get(accountId));

  /** A reply that is an opt-out or opt-in keyword of its account changes the opt-out with it. */
  const keywordReply = (m: { accountId: number; from: string; body: string; at: number }) => {
    const action = keywordAction(m.body, settingsOfAccount(m.accountId));
    if (action === 'out') {
      const keyword = m.body.trim();
      add(
        [{ accountId: m.accountId, phone: m.from, source: 'keyword', keyword, createdAt: m.at }],
        m.at,
      );
    } else if (action === 'in') {
      drop(m.accountId, [m.from], { source: 'keyword', keyword: m.body.trim() }, m.at);
    }
  };

  const store: OptOutStore = {
    ...sqliteOptOutReads(db, settingsOfAccount),
    async optedOutAmong(accountId, phones) {
      // Most accounts have none: one index probe spares building the list.
      if (phones.length === 0 || !any.get(accountId)) return new Set();
      return new Set(among.all(accountId, JSON.stringify(phones)));
    },
    async addOptOuts(list, now) {
      return db.transaction(() => add(list, now))();
    },
    async removeOptOuts(accountId, phones, source, now) {
      return db.transaction(() => drop(accountId, phones, { source, keyword: '' }, now))();
    },
  };
  return { store, keywordReply };
}

/** The keyword settings and the listing: reads and one plain write, no events. */
function sqliteOptOutReads(
  db: Db,
  settingsOfAccount: (accountId: number) => OptOutSettings,
): Pick<OptOutStore, 'optOutSettings' | 'setOptOutSettings' | 'listOptOuts'> {
  const save = db.prepare(
    `UPDATE accounts SET opt_out_keywords = ?, opt_in_keywords = ?,
       opt_out_exempt_verification = ? WHERE account_id = ?`,
  );
  const list = db.prepare<unknown[], OptOutRow>(
    `SELECT ${OPT_OUT_COLUMNS} FROM opt_outs WHERE account_id = ?
     AND (? IS NULL OR phone = ?) AND (? IS NULL OR phone > ?) ORDER BY phone LIMIT ?`,
  );
  return {
    async optOutSettings(accountId) {
      return settingsOfAccount(accountId);
    },
    async setOptOutSettings(accountId, s) {
      const keywords = [JSON.stringify(s.optOutKeywords), JSON.stringify(s.optInKeywords)];
      save.run(...keywords, s.exemptVerification ? 1 : 0, accountId);
    },
    async listOptOuts(f) {
      const phone = f.phone ?? null;
      const after = f.after ?? null;
      const rows = list.all(f.accountId, phone, phone, after, after, f.limit + 1);
      return optOutPage(rows, f.limit);
    },
  };
}
