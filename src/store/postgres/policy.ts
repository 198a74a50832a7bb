import { utcDay, type AccountPolicy } from '../../domain/accounts/policy.js';
import type { AcceptedBatch } from '../../domain/messages/message.js';
import type { AccountPolicyStore } from '../../domain/accounts/policy-ports.js';
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
  // Read after the lock, in a statement of its own: under READ COMMITTED a statement sees what
  // was committed when it began, so counters read in the locking statement could be the ones
  // from before the holder it waited for committed.
  const u = await c.query<{ cost_count: string; told: string }>(
    'SELECT cost_count, told FROM account_usage WHERE account_id = $1 AND day = $2',
    [batch.accountId, day],
  );
  const usage = u.rows[0];
  const policy = policyOf(row);
  const recent =
    policy.recipientHourlyLimit === undefined
      ? new Map<string, number>()
      : await countRecent(c, recentQuestion(batch), batch);
  return policyWrites(batch, policy, {
    balance: Number(row.balance),
    usedToday: Number(usage?.cost_count ?? 0),
    recent,
    nextSlot: Number(row.next_slot),
    day,
    told: usage?.told ?? '',
  });
}

/**
 * The hourly guard's counts, in one statement for the batch's numbers (as one JSON parameter: pg
 * escapes a text[] element by element in JavaScript), made an array so that PostgreSQL walks the
 * index once for all of them, in order (half the cost of a probe per number). It reads every
 * entry of the hour for a number found, which the guard keeps at the limit. The batch's own
 * rows may be stored already (acceptance stores them before the lock): they do not count.
 */
async function countRecent(
  c: Queryable,
  q: RecentQuestion,
  batch: AcceptedBatch,
): Promise<Map<string, number>> {
  const r = await c.query<{ e164: string; n: number }>(
    `SELECT m.e164, count(*)::int AS n FROM messages m
     WHERE m.e164 = ANY (ARRAY(SELECT json_array_elements_text($4::json)))
       AND m.account_id = $1 AND m.kind = 'sms' AND m.accepted_at > $2
       AND m.session_no IS DISTINCT FROM $3
     GROUP BY m.e164`,
    [batch.accountId, q.since, batch.sessionNo, q.numbers],
  );
  return new Map(r.rows.map((row) => [row.e164, row.n]));
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
      return inTransaction(pool, async (c) => {
        await c.query(
          `INSERT INTO account_policies (account_id, updated_at) VALUES ($1,$2)
           ON CONFLICT (account_id) DO NOTHING`,
          [accountId, now],
        );
        await c.query(
          `INSERT INTO credit_ledger (account_id, cost_count, kind, reference, created_at)
           VALUES ($1,$2,'credit',$3,$4)`,
          [accountId, credit.costCount, credit.reference, now],
        );
        const r = await c.query<{ balance: string }>(
          'UPDATE account_policies SET balance = balance + $1 WHERE account_id = $2 RETURNING balance',
          [credit.costCount, accountId],
        );
        return Number(r.rows[0]?.balance ?? 0);
      });
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
