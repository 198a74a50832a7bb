import { utcDay, type AccountPolicy } from '../../domain/accounts/policy.js';
import type { AcceptedBatch } from '../../domain/messages/message.js';
import type { AccountPolicyStore } from '../../domain/accounts/policy-ports.js';
import {
  POLICY_COLUMNS,
  ledgerEntryOf,
  policyOf,
  policyValues,
  policyWrites,
  e164OfKey,
  numberKey,
  timesOf,
  timesText,
  type LedgerRow,
  type PolicyRow,
  type PolicyWrites,
} from '../rows/policy.js';
import type { Db } from './database.js';
import type { SqliteOutbox } from './outbox.js';
import { multiRowInsert } from './multi-row.js';

/** Numbers per upsert of their send times: 750 parameters, well under SQLite's bound. */
const TIMES_PER_UPSERT = 250;

/**
 * The account's policy applied inside acceptance's transaction: read the counters, decide, write
 * them. SQLite has one writer at a time, so the read and the write cannot interleave with another.
 */
export function sqlitePolicyGuard(db: Db, outbox: SqliteOutbox) {
  return { decide: policyReader(db), write: policyWriter(db, outbox) };
}

/** What the policy makes of a batch; undefined when the account has none. */
function policyReader(db: Db): (batch: AcceptedBatch) => PolicyWrites | undefined {
  const selectPolicy = db.prepare<unknown[], PolicyRow>(
    `SELECT ${POLICY_COLUMNS} FROM account_policies WHERE account_id = ?`,
  );
  const selectUsage = db.prepare<unknown[], { cost_count: number; told: string }>(
    'SELECT cost_count, told FROM account_usage WHERE account_id = ? AND day = ?',
  );
  // One statement for the batch's numbers, not one per number.
  const selectTimes = db.prepare<unknown[], { number: number; times: string }>(
    `SELECT number, times FROM recipient_sends
     WHERE account_id = ? AND number IN (SELECT value FROM json_each(?))`,
  );
  return (batch) => {
    const row = selectPolicy.get(batch.accountId);
    if (!row) return undefined;
    const policy = policyOf(row);
    const day = utcDay(batch.acceptedAt);
    const usage = selectUsage.get(batch.accountId, day);
    const recent = new Map<string, number[]>();
    if (policy.recipientHourlyLimit !== undefined) {
      const numbers = JSON.stringify(batch.messages.map((m) => numberKey(m.e164)));
      for (const r of selectTimes.iterate(batch.accountId, numbers)) {
        recent.set(e164OfKey(r.number), timesOf(r.times));
      }
    }
    return policyWrites(batch, policy, {
      balance: Number(row.balance),
      usedToday: usage?.cost_count ?? 0,
      recent,
      nextSlot: Number(row.next_slot),
      day,
      told: usage?.told ?? '',
    });
  };
}

/** Writes the counters, the debit and the events a decision made. */
function policyWriter(db: Db, outbox: SqliteOutbox): (w: PolicyWrites) => void {
  const upsertUsage = db.prepare(
    `INSERT INTO account_usage (account_id, day, cost_count, told) VALUES (?,?,?,?)
     ON CONFLICT (account_id, day) DO UPDATE SET cost_count = cost_count + excluded.cost_count,
       told = excluded.told`,
  );
  const upsertTimes = multiRowInsert(
    db,
    'INSERT INTO recipient_sends (account_id, number, times) VALUES',
    '(?,?,?)',
    'ON CONFLICT (account_id, number) DO UPDATE SET times = excluded.times',
  );
  const debit = db.prepare(
    'UPDATE account_policies SET balance = balance - ?, next_slot = ? WHERE account_id = ?',
  );
  const ledger = db.prepare(
    `INSERT INTO credit_ledger (account_id, cost_count, kind, reference, created_at)
     VALUES (?,?,'debit',?,?)`,
  );
  return (w) => {
    const { accountId, acceptedAt: now, sessionNo } = w.batch;
    const cost = w.decision.cost;
    upsertUsage.run(accountId, w.day, cost, w.told);
    // In key order: neighbouring keys land on the same B-tree pages.
    // In key order: neighbouring keys land on the same B-tree pages.
    const numbers = [...w.decision.recent.keys()].sort((a, b) => numberKey(a) - numberKey(b));
    for (let i = 0; i < numbers.length; i += TIMES_PER_UPSERT) {
      const chunk = numbers.slice(i, i + TIMES_PER_UPSERT);
      const values: unknown[] = [];
      for (const e164 of chunk) {
        // Each key of the chunk came from the map.
        values.push(accountId, numberKey(e164), timesText(w.decision.recent.get(e164) as number[]));
      }
      upsertTimes(chunk.length).run(values);
    }
    const debited = w.prepaid && cost > 0;
    debit.run(debited ? cost : 0, w.decision.nextSlot, accountId);
    if (debited) ledger.run(accountId, -cost, sessionNo, now);
    for (const e of w.events) outbox.emit(e, now);
  };
}

/** The operator's side: set the policy, add credit, read the ledger. */
export function sqlitePolicies(db: Db): AccountPolicyStore {
  const selectPolicy = db.prepare<unknown[], PolicyRow>(
    `SELECT ${POLICY_COLUMNS} FROM account_policies WHERE account_id = ?`,
  );
  const used = db
    .prepare<unknown[], number>(
      'SELECT cost_count FROM account_usage WHERE account_id = ? AND day = ?',
    )
    .pluck();
  const upsert = db.prepare(
    `INSERT INTO account_policies (account_id, countries, max_per_second, daily_limit,
       recipient_hourly_limit, prepaid, updated_at) VALUES (?,?,?,?,?,?,?)
     ON CONFLICT (account_id) DO UPDATE SET countries = excluded.countries,
       max_per_second = excluded.max_per_second, daily_limit = excluded.daily_limit,
       recipient_hourly_limit = excluded.recipient_hourly_limit, prepaid = excluded.prepaid,
       updated_at = excluded.updated_at`,
  );
  const ensure = db.prepare(
    `INSERT INTO account_policies (account_id, updated_at) VALUES (?,?)
     ON CONFLICT (account_id) DO NOTHING`,
  );
  const credit = db
    .prepare<unknown[], number>(
      'UPDATE account_policies SET balance = balance + ? WHERE account_id = ? RETURNING balance',
    )
    .pluck();
  const ledger = db.prepare(
    `INSERT INTO credit_ledger (account_id, cost_count, kind, reference, created_at)
     VALUES (?,?,'credit',?,?)`,
  );
  const page = db.prepare<unknown[], LedgerRow>(
    `SELECT id, cost_count, kind, reference, created_at FROM credit_ledger
     WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
  );
  const addCredit = db.transaction((accountId: number, n: number, ref: string, now: number) => {
    ensure.run(accountId, now);
    ledger.run(accountId, n, ref, now);
    return credit.get(n, accountId) ?? 0;
  });
  return {
    async accountPolicy(accountId, day) {
      const row = selectPolicy.get(accountId);
      const policy: AccountPolicy = row ? policyOf(row) : { prepaid: false };
      const balance = row ? Number(row.balance) : 0;
      return { policy, balance, usedToday: used.get(accountId, day) ?? 0 };
    },
    async setAccountPolicy(accountId, p, now) {
      upsert.run(accountId, ...policyValues(p), p.prepaid ? 1 : 0, now);
    },
    async addCredit(accountId, c, now) {
      return addCredit(accountId, c.costCount, c.reference, now);
    },
    async creditLedger(accountId, q) {
      return page.all(accountId, q.beforeId ?? Number.MAX_SAFE_INTEGER, q.limit).map(ledgerEntryOf);
    },
  };
}
