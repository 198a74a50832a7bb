import type { MessageStore } from '../../domain/ports.js';
import { replaceCharge } from '../../domain/accounts/replace-charge.js';
import { utcDay } from '../../domain/accounts/policy.js';
import {
  heldCostsSql,
  heldDelta,
  replaceChargeWrites,
  replaceCountersSql,
  replaceSql,
  replaceStateOf,
  type ReplaceCountersRow,
} from '../rows/replace.js';
import { inTransaction, type Pool, type Queryable } from './database.js';

const P = (n: number) => `$${n}`;

/**
 * The policy's counters under the policy row's lock, read after it in a statement of their own
 * (under READ COMMITTED a statement sees what was committed when it began): acceptance takes the
 * same lock, so a replace and a submit of the account are charged one after the other.
 */
async function countersOf(c: Queryable, accountId: number, day: number, sessionNo: string) {
  await c.query('SELECT 1 FROM account_policies WHERE account_id = $1 FOR UPDATE', [accountId]);
  const r = await c.query<ReplaceCountersRow>(replaceCountersSql(P), [sessionNo, day, accountId]);
  return replaceStateOf(r.rows[0]);
}

/**
 * replace_sm's change of held SMS, charged in its own transaction. The held rows are locked
 * first, as a cancel's refund locks them before the policy row, so the two never deadlock.
 */
export function postgresReplace(pool: Pool): Pick<MessageStore, 'replaceQueued'> {
  return {
    async replaceQueued(accountId, sessionNo, change, now) {
      return inTransaction(pool, async (c) => {
        const held = heldCostsSql(P, accountId, sessionNo, { ...change, lock: 'FOR UPDATE' });
        const costs = (await c.query<{ cost_count: number }>(held.sql, held.values)).rows;
        if (costs.length === 0) return { replaced: 0 };
        const delta = heldDelta(costs, change);
        if (delta !== 0) {
          const day = utcDay(now);
          const { policy, state } = await countersOf(c, accountId, day, sessionNo);
          const charge = replaceCharge(policy, state, delta);
          if ('rule' in charge) return { refused: charge };
          const at = { accountId, sessionNo, day, now };
          for (const w of replaceChargeWrites(P, charge, at)) await c.query(w.sql, w.values);
        }
        const { sql, values } = replaceSql(P, accountId, sessionNo, change);
        return { replaced: (await c.query(sql, values)).rowCount ?? 0 };
      });
    },
  };
}
