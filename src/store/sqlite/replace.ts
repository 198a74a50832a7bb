import type { MessageStore, ReplaceOutcome } from '../../domain/ports.js';
import type { HeldChange } from '../../domain/messages/schedule.js';
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
import type { Db } from './database.js';

const Q = () => '?';

/**
 * replace_sm's change of held SMS, charged in its own transaction: SQLite has one writer, so the
 * counters read are the ones written over. The statements differ by what is changed, so they are
 * built.
 */
export function sqliteReplace(db: Db): Pick<MessageStore, 'replaceQueued'> {
  const counters = db.prepare<unknown[], ReplaceCountersRow>(replaceCountersSql(Q));
  const replace = db.transaction(
    (accountId: number, sessionNo: string, change: HeldChange, now: number): ReplaceOutcome => {
      const held = heldCostsSql(Q, accountId, sessionNo, change);
      const costs = db.prepare<unknown[], { cost_count: number }>(held.sql).all(...held.values);
      if (costs.length === 0) return { replaced: 0 };
      const delta = heldDelta(costs, change);
      if (delta !== 0) {
        const day = utcDay(now);
        const { policy, state } = replaceStateOf(counters.get(sessionNo, day, accountId));
        const charge = replaceCharge(policy, state, delta);
        if ('rule' in charge) return { refused: charge };
        const at = { accountId, sessionNo, day, now };
        for (const w of replaceChargeWrites(Q, charge, at)) db.prepare(w.sql).run(...w.values);
      }
      const { sql, values } = replaceSql(Q, accountId, sessionNo, change);
      return { replaced: db.prepare(sql).run(...values).changes };
    },
  );
  return {
    async replaceQueued(accountId, sessionNo, change, now) {
      return replace(accountId, sessionNo, change, now);
    },
  };
}
