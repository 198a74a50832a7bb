import type { MessageStore } from '../../domain/ports.js';
import {
  CANCELED_CODE,
  CANCELED_DESC,
  EXPIRED_CODE,
  EXPIRED_DESC,
} from '../../domain/messages/schedule.js';
import { cancelBusinessSql, cancelSql, expireSql, type CancelledRow } from '../rows/cancel.js';
import { inTransaction, type Pool } from './database.js';
import { messagesChanged } from './outbox.js';

const P = (n: number) => `$${n}`;

type Ending = Pick<MessageStore, 'cancelQueued' | 'cancelQueuedBusiness' | 'expireQueued'>;

/** Ends the rows an UPDATE … RETURNING chose, with their events, in one transaction. */
function ending(pool: Pool, why: { code: string; desc: string }) {
  return (sql: string, values: unknown[], now: number) =>
    inTransaction(pool, async (c) => {
      const r = await c.query<CancelledRow>(sql, values);
      // A business message's history shows how it ended, as it shows a report.
      const ended = r.rows.filter((row) => row.kind === 'business').map((row) => row.id);
      if (ended.length > 0) {
        await c.query(
          `INSERT INTO message_events (message_ref, status, at, code, descr)
           SELECT id, 'failed', $2, $3, $4 FROM unnest($1::bigint[]) AS id`,
          [ended, now, why.code, why.desc],
        );
      }
      const said = { status: 'failed', ...why, at: now };
      await messagesChanged(
        c,
        r.rows.map((row) => ({ id: row.id, ...said })),
        now,
      );
      return r.rows.length;
    });
}

/** Messages that end before they are handed upstream: cancelled, or expired. */
export function postgresCancel(pool: Pool): Ending {
  const cancel = ending(pool, { code: CANCELED_CODE, desc: CANCELED_DESC });
  const expire = ending(pool, { code: EXPIRED_CODE, desc: EXPIRED_DESC });
  return {
    async cancelQueued(accountId, sessionNo, e164, now) {
      const values = [Math.floor(now / 1000), sessionNo, accountId];
      const sql = cancelSql(P, e164 !== undefined);
      return cancel(sql, e164 === undefined ? values : [...values, e164], now);
    },
    async cancelQueuedBusiness(accountId, messageId, now) {
      const values = [Math.floor(now / 1000), accountId, messageId];
      return (await cancel(cancelBusinessSql(P), values, now)) > 0;
    },
    async expireQueued(now, limit) {
      return expire(expireSql(P), [Math.floor(now / 1000), now, limit], now);
    },
  };
}
