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
  type RecentQuestion,
} from '../rows/policy.js';
import { inTransaction, type Pool, type Queryable } from './database.js';
import { emitEvents } from './outbox.js';
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

const P = (n: number) => `$${n}`;

/**
 * What the account's policy makes of the batch, read under the policy row's lock: every
 * acceptance of the account, on every node, waits here for the one before it to commit, so the
 * counters it reads are the ones it writes over. Undefined when the account has no policy.
 */
export async function decidePolicy(
  c: Queryable,
  batch: AcceptedBatch,
): Promise<PolicyWrites | undefined> {
  const day = utcDay(batch.acceptedAt);
  const r = await c.query<PolicyRow>(
    `SELECT ${POLICY_COLUMNS} FROM account_policies WHERE account_id = $1 FOR UPDATE`,
    [batch.accountId],
  );
  const row = r.rows[0];
  if (!row) return undefined;
  const policy = policyOf(row);
  const counters = await readCounters(c, batch, policy, day);
  return policyWrites(batch, policy, {
    balance: Number(row.balance),
    nextSlot: Number(row.next_slot),
    day,
    ...counters,
  });
}

/**
 * Today's use and, for the hourly guard, its counts: one statement, one round trip of the
 * account's turn. Read after the lock, in a statement of its own: under READ COMMITTED a
 * statement sees what was committed when it began, so counters read in the locking statement
 * could be the ones from before the holder it waited for committed.
 *
 * The guard's counts come from the batch's numbers (one JSON parameter: pg escapes a text[]
 * element by element in JavaScript) made an array, so that PostgreSQL walks the index once for
 * all of them, in order (half the cost of a probe per number). It reads every entry of the hour
 * for a number found, which the guard keeps at the limit. The batch's own rows are stored
 * already (before the lock, or not at all for a fallback): they do not count.
 */
async function readCounters(
  c: Queryable,
  batch: AcceptedBatch,
  policy: AccountPolicy,
  day: number,
): Promise<{ usedToday: number; told: string; recent: Map<string, number> }> {
  const q: RecentQuestion =
    policy.recipientHourlyLimit === undefined ? { since: 0, numbers: '[]' } : recentQuestion(batch);
  const r = await c.query<{ e164: string | null; n: string; told: string | null }>(
    `SELECT NULL::text AS e164, cost_count AS n, told FROM account_usage
       WHERE account_id = $1 AND day = $2
     UNION ALL
     SELECT m.e164, count(*), NULL FROM messages m
       WHERE m.e164 = ANY (ARRAY(SELECT json_array_elements_text($5::json)))
         AND m.account_id = $1 AND m.kind = 'sms' AND m.accepted_at > $3
         AND m.session_no IS DISTINCT FROM $4
       GROUP BY m.e164`,
    [batch.accountId, day, q.since, batch.sessionNo, q.numbers],
  );
  const out = { usedToday: 0, told: '', recent: new Map<string, number>() };
  for (const row of r.rows) {
    if (row.e164 === null) Object.assign(out, { usedToday: Number(row.n), told: row.told ?? '' });
    else out.recent.set(row.e164, Number(row.n));
  }
  return out;
}

/** Writes the counters, the debit and the events a decision made: one round trip, and events. */
export async function writePolicy(c: Queryable, w: PolicyWrites): Promise<void> {
  const { accountId, acceptedAt: now, sessionNo } = w.batch;
  const cost = w.decision.cost;
  const debit = w.prepaid ? cost : 0;
  await c.query(
    `WITH u AS (INSERT INTO account_usage (account_id, day, cost_count, told) VALUES ($1,$2,$3,$4)
       ON CONFLICT (account_id, day) DO UPDATE
       SET cost_count = account_usage.cost_count + excluded.cost_count, told = excluded.told),
     l AS (INSERT INTO credit_ledger (account_id, cost_count, kind, reference, created_at)
       SELECT $1, -$6::bigint, 'debit', $7, $5 WHERE $6::bigint > 0)
     UPDATE account_policies SET balance = balance - $6::bigint, next_slot = $8 WHERE account_id = $1`,
    [accountId, w.day, cost, w.told, now, debit, sessionNo, w.decision.nextSlot],
  );
  if (w.events.length > 0) await emitEvents(c, w.events, now);
}

/** The operator's side: set the policy, add credit, read the ledger. */
export function postgresPolicies(pool: Pool): AccountPolicyStore {
  return {
    async accountPolicy(accountId, day) {
      const r = await pool.query<PolicyRow & { used: string | null }>(
        `SELECT ${POLICY_COLUMNS}, (SELECT cost_count FROM account_usage u
           WHERE u.account_id = p.account_id AND u.day = $2) AS used
         FROM account_policies p WHERE account_id = $1`,
        [accountId, day],
      );
      const row = r.rows[0];
      const policy: AccountPolicy = row ? policyOf(row) : { prepaid: false };
      const usedToday = row ? Number(row.used ?? 0) : await usedOn(pool, accountId, day);
      return { policy, balance: row ? Number(row.balance) : 0, usedToday };
    },
    async setAccountPolicy(accountId, p, now) {
      await pool.query(
        `INSERT INTO account_policies (account_id, countries, max_per_second, daily_limit,
           recipient_hourly_limit, prepaid, updated_at) VALUES ($1,$2,$3,$4,$5,$6,$7)
         ON CONFLICT (account_id) DO UPDATE SET countries = excluded.countries,
           max_per_second = excluded.max_per_second, daily_limit = excluded.daily_limit,
           recipient_hourly_limit = excluded.recipient_hourly_limit, prepaid = excluded.prepaid,
           updated_at = excluded.updated_at`,
        [accountId, ...policyValues(p), p.prepaid, now],
      );
    },
    async addCredit(accountId, credit, now) {
      return inTransaction(pool, (c) => postgresCredit(c, accountId, credit, now));
    },
    async creditLedger(accountId, q) {
      const r = await pool.query<LedgerRow>(
        `SELECT id, cost_count, kind, reference, created_at FROM credit_ledger
         WHERE account_id = $1 AND id < $2 ORDER BY id DESC LIMIT $3`,
        [accountId, q.beforeId ?? Number.MAX_SAFE_INTEGER, q.limit],
      );
      return r.rows.map(ledgerEntryOf);
    },
  };
}

async function usedOn(db: Queryable, accountId: number, day: number): Promise<number> {
  const r = await db.query<{ cost_count: string }>(
    'SELECT cost_count FROM account_usage WHERE account_id = $1 AND day = $2',
    [accountId, day],
  );
  return Number(r.rows[0]?.cost_count ?? 0);
}

/**
 * An operator's credit (rows/credits.ts says the order), under the policy row's lock: two nodes
 * crediting one Reference, or one key, at once take turns, and the second finds the first.
 */
async function postgresCredit(
  c: Queryable,
  accountId: number,
  credit: NewCredit,
  now: number,
): Promise<CreditOutcome> {
  await c.query(ensurePolicySql(P), [accountId, now]);
  await c.query('SELECT 1 FROM account_policies WHERE account_id = $1 FOR UPDATE', [accountId]);
  const idem = credit.idempotency;
  if (idem) {
    const window = idempotencyWindowStart(now);
    const seen = (await c.query<IdemRow>(findKeySql(P), [accountId, idem.key, window])).rows[0];
    if (seen) return { replayed: fromIdemRow(seen) };
  }
  if (!credit.repeatReference) {
    const r = await c.query<LedgerRow>(earlierCreditSql(P), [accountId, credit.reference]);
    const before = earlierEntry(r.rows[0]);
    if (before) return { earlier: before };
  }
  const values = [accountId, credit.costCount, credit.reference, now];
  const id = (await c.query<{ id: string }>(insertCreditSql(P), values)).rows[0]?.id ?? 0;
  const raised = await c.query<{ balance: string }>(raiseBalanceSql(P), [
    credit.costCount,
    accountId,
  ]);
  const balance = raised.rows[0]?.balance ?? 0;
  const { added, key } = creditAdded(accountId, credit, { id, balance, now });
  if (key) await c.query(takeKeySql(P), key);
  return { added };
}
