import { utcDay, type AccountPolicy } from '../../domain/accounts/policy.js';
import type { AcceptedBatch } from '../../domain/messages/message.js';
import type {
  AccountPolicyStore,
  CreditOutcome,
  NewCredit,
} from '../../domain/accounts/policy-ports.js';
import {
  POLICY_COLUMNS,
  ledgerEntryOf,
  policyOf,
  policyValues,
  policyWrites,
  recentQuestion,
  type LedgerRow,
  type PolicyRow,
  type PolicyWrites,
} from '../rows/policy.js';
import type { Db } from './database.js';
import {
  creditAdded,
  earlierCreditSql,
  earlierEntry,
  ensurePolicySql,
  findKeySql,
  insertCreditSql,
  raiseBalanceSql,
  takeKeySql,
} from '../rows/credits.js';
import { fromIdemRow, type IdemRow } from '../rows/messages.js';
import { idempotencyWindowStart } from '../../domain/messages/idempotency-window.js';

const Q = () => '?';
import type { SqliteOutbox } from './outbox.js';

/**
 * The account's policy applied inside acceptance's transaction: read the counters, decide, write
 * them. SQLite has one writer at a time, so the read and the write cannot interleave with another.
 */
export function sqlitePolicyGuard(db: Db, outbox: SqliteOutbox) {
  return { decide: policyReader(db), write: policyWriter(db, outbox) };
}

interface RecentParams {
  account: number;
  since: number;
  limit: number;
  numbers: string;
}

/** What the policy makes of a batch; undefined when the account has none. */
function policyReader(db: Db): (batch: AcceptedBatch) => PolicyWrites | undefined {
  const selectPolicy = db.prepare<unknown[], PolicyRow>(
    `SELECT ${POLICY_COLUMNS} FROM account_policies WHERE account_id = ?`,
  );
  const selectUsage = db.prepare<unknown[], { cost_count: number; told: string }>(
    'SELECT cost_count, told FROM account_usage WHERE account_id = ? AND day = ?',
  );
  // One statement for the batch's numbers, not one per number; only those sent to come back. A
  // number is counted only once found (most of a batch never was: one index probe each), and
  // only up to the limit, which is all the rule needs.
  // Acceptance decides before it inserts the batch, so none of the counted rows are its own.
  const sent = `FROM messages m WHERE m.e164 = j.value AND m.account_id = @account
    AND m.kind = 'sms' AND m.accepted_at > @since`;
  const countRecent = db.prepare<RecentParams, { e164: string; n: number }>(
    `SELECT j.value AS e164, (SELECT count(*) FROM (SELECT 1 ${sent} LIMIT @limit)) AS n
     FROM json_each(@numbers) j WHERE EXISTS (SELECT 1 ${sent})`,
  );
  return (batch) => {
    const row = selectPolicy.get(batch.accountId);
    if (!row) return undefined;
    const policy = policyOf(row);
    const day = utcDay(batch.acceptedAt);
    const usage = selectUsage.get(batch.accountId, day);
    const recent = new Map<string, number>();
    if (policy.recipientHourlyLimit !== undefined) {
      const limit = policy.recipientHourlyLimit;
      const params = { account: batch.accountId, limit, ...recentQuestion(batch) };
      for (const r of countRecent.iterate(params)) {
        recent.set(r.e164, r.n);
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
  const page = db.prepare<unknown[], LedgerRow>(
    `SELECT id, cost_count, kind, reference, created_at FROM credit_ledger
     WHERE account_id = ? AND id < ? ORDER BY id DESC LIMIT ?`,
  );
  const addCredit = sqliteCredit(db);
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
      return addCredit(accountId, c, now);
    },
    async creditLedger(accountId, q) {
      return page.all(accountId, q.beforeId ?? Number.MAX_SAFE_INTEGER, q.limit).map(ledgerEntryOf);
    },
  };
}

/** An operator's credit in one transaction (rows/credits.ts says the order). */
function sqliteCredit(db: Db) {
  const ensure = db.prepare(ensurePolicySql(Q));
  const findKey = db.prepare<unknown[], IdemRow>(findKeySql(Q));
  const earlier = db.prepare<unknown[], LedgerRow>(earlierCreditSql(Q));
  const insert = db.prepare<unknown[], { id: number }>(insertCreditSql(Q));
  const raise = db.prepare<unknown[], { balance: number }>(raiseBalanceSql(Q));
  const takeKey = db.prepare(takeKeySql(Q));
  return db.transaction((accountId: number, c: NewCredit, now: number): CreditOutcome => {
    ensure.run(accountId, now);
    const idem = c.idempotency;
    const seen = idem && findKey.get(accountId, idem.key, idempotencyWindowStart(now));
    if (seen) return { replayed: fromIdemRow(seen) };
    const before = c.repeatReference
      ? undefined
      : earlierEntry(earlier.get(accountId, c.reference));
    if (before) return { earlier: before };
    const id = insert.get(accountId, c.costCount, c.reference, now)?.id ?? 0;
    const balance = raise.get(c.costCount, accountId)?.balance ?? 0;
    const { added, key } = creditAdded(accountId, c, { id, balance, now });
    if (key) takeKey.run(...key);
    return { added };
  });
}
