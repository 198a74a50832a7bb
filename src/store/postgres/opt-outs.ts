import {
  keywordAction,
  optOutEvent,
  type OptOut,
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
import { inTransaction, type Pool, type Queryable } from './database.js';
import { emitEvents } from './outbox.js';

async function settingsOfAccount(c: Queryable, accountId: number) {
  const r = await c.query<SettingsRow>(
    `SELECT ${SETTINGS_COLUMNS} FROM accounts WHERE account_id = $1`,
    [accountId],
  );
  return settingsOf(r.rows[0]);
}

/** Records opt-outs not there yet, each with its event; answers the phones added. */
async function add(c: Queryable, list: readonly OptOut[], now: number): Promise<string[]> {
  if (list.length === 0) return [];
  const r = await c.query<{
    phone: string;
    account_id: number;
    source: OptOutSource;
    keyword: string;
    created_at: number;
  }>(
    `INSERT INTO opt_outs (${OPT_OUT_COLUMNS})
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::bigint[])
     ON CONFLICT DO NOTHING RETURNING ${OPT_OUT_COLUMNS}`,
    [
      list.map((o) => o.accountId),
      list.map((o) => o.phone),
      list.map((o) => o.source),
      list.map((o) => o.keyword),
      list.map((o) => o.createdAt),
    ],
  );
  const events = r.rows.map((o) =>
    optOutEvent('out', {
      accountId: o.account_id,
      phone: o.phone,
      source: o.source,
      keyword: o.keyword,
      at: o.created_at,
    }),
  );
  await emitEvents(c, events, now);
  return r.rows.map((o) => o.phone);
}

async function drop(
  c: Queryable,
  o: {
    accountId: number;
    phones: readonly string[];
    source: OptOutSource;
    /** The reply that opted back in (START); '' otherwise. */
    keyword: string;
    now: number;
  },
): Promise<string[]> {
  if (o.phones.length === 0) return [];
  const r = await c.query<{ phone: string }>(
    'DELETE FROM opt_outs WHERE account_id = $1 AND phone = ANY($2::text[]) RETURNING phone',
    [o.accountId, [...o.phones]],
  );
  const removed = r.rows.map((row) => row.phone);
  const events = removed.map((phone) => optOutEvent('in', { ...o, phone, at: o.now }));
  await emitEvents(c, events, o.now);
  return removed;
}

/** A reply that is an opt-out or opt-in keyword of its account changes the opt-out with it. */
export async function keywordReply(
  c: Queryable,
  m: { accountId: number; from: string; body: string; at: number },
): Promise<void> {
  const action = keywordAction(m.body, await settingsOfAccount(c, m.accountId));
  if (action === 'out') {
    const o = { accountId: m.accountId, phone: m.from, source: 'keyword' as const };
    await add(c, [{ ...o, keyword: m.body.trim(), createdAt: m.at }], m.at);
  } else if (action === 'in') {
    const keyword = m.body.trim();
    await drop(c, {
      accountId: m.accountId,
      phones: [m.from],
      source: 'keyword',
      keyword,
      now: m.at,
    });
  }
}

export function postgresOptOuts(pool: Pool): OptOutStore {
  return {
    optOutSettings: (accountId) => settingsOfAccount(pool, accountId),
    async setOptOutSettings(accountId, s) {
      await pool.query(
        `UPDATE accounts SET opt_out_keywords = $2, opt_in_keywords = $3,
           opt_out_exempt_verification = $4 WHERE account_id = $1`,
        [
          accountId,
          JSON.stringify(s.optOutKeywords),
          JSON.stringify(s.optInKeywords),
          s.exemptVerification,
        ],
      );
    },
    async optedOutAmong(accountId, phones) {
      if (phones.length === 0) return new Set();
      const r = await pool.query<{ phone: string }>(
        'SELECT phone FROM opt_outs WHERE account_id = $1 AND phone = ANY($2::text[])',
        [accountId, [...phones]],
      );
      return new Set(r.rows.map((row) => row.phone));
    },
    addOptOuts: (list, now) => inTransaction(pool, (c) => add(c, list, now)),
    removeOptOuts: (accountId, phones, source, now) =>
      inTransaction(pool, (c) => drop(c, { accountId, phones, source, keyword: '', now })),
    async listOptOuts(f) {
      const r = await pool.query<OptOutRow>(
        `SELECT ${OPT_OUT_COLUMNS} FROM opt_outs WHERE account_id = $1
         AND ($2::text IS NULL OR phone = $2) AND ($3::text IS NULL OR phone > $3)
         ORDER BY phone LIMIT $4`,
        [f.accountId, f.phone ?? null, f.after ?? null, f.limit + 1],
      );
      return optOutPage(r.rows, f.limit);
    },
  };
}
