import type { MessageStore } from '../../domain/ports.js';
import { CANCELLED_CODE, CANCELLED_DESC, cancelSql, type CancelledRow } from '../rows/cancel.js';
import { inTransaction, type Pool } from './database.js';
import { messagesChanged } from './outbox.js';

const P = (n: number) => `$${n}`;

export function postgresCancel(pool: Pool): Pick<MessageStore, 'cancelQueued'> {
  return {
    async cancelQueued(accountId, sessionNo, e164, now) {
      return inTransaction(pool, async (c) => {
        const values = [Math.floor(now / 1000), sessionNo, accountId];
        const r = await c.query<CancelledRow>(
          cancelSql(P, e164 !== undefined),
          e164 === undefined ? values : [...values, e164],
        );
        const said = { status: 'failed', code: CANCELLED_CODE, desc: CANCELLED_DESC, at: now };
        await messagesChanged(
          c,
          r.rows.map((row) => ({ id: row.id, ...said })),
          now,
        );
        return r.rows.length;
      });
    },
  };
}
