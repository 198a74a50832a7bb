import type { MessageStore } from '../../domain/ports.js';
import {
  CANCELED_CODE,
  CANCELED_DESC,
  EXPIRED_CODE,
  EXPIRED_DESC,
} from '../../domain/messages/schedule.js';
import { cancelBusinessSql, cancelSql, expireSql, type CancelledRow } from '../rows/cancel.js';
import type { Db } from './database.js';
import type { SqliteOutbox } from './outbox.js';

const Q = () => '?';

type Ending = Pick<MessageStore, 'cancelQueued' | 'cancelQueuedBusiness' | 'expireQueued'>;

/** Messages that end before they are handed upstream: cancelled, or expired. */
export function sqliteCancel(db: Db, outbox: SqliteOutbox): Ending {
  const all = db.prepare<unknown[], CancelledRow>(cancelSql(Q, false));
  const one = db.prepare<unknown[], CancelledRow>(cancelSql(Q, true));
  const business = db.prepare<unknown[], CancelledRow>(cancelBusinessSql(Q));
  const expire = db.prepare<unknown[], CancelledRow>(expireSql(Q));
  const history = db.prepare(
    'INSERT INTO message_events (message_ref, status, at, code, descr) VALUES (?,?,?,?,?)',
  );
  /** Each row's receipt or status event, written in the change's transaction. */
  const announce = (
    rows: readonly CancelledRow[],
    why: { code: string; desc: string },
    now: number,
  ) => {
    for (const r of rows) {
      // A business message's history shows how it ended, as it shows a report.
      if (r.kind === 'business') history.run(r.id, 'failed', now, why.code, why.desc);
      const change = { id: r.id, accountId: r.account_id, kind: r.kind };
      const said = { status: 'failed', ...why, at: now };
      outbox.messageChanged({ ...change, ...said, receiptTo: r.receipt_to }, now);
    }
    return rows.length;
  };
  const canceled = { code: CANCELED_CODE, desc: CANCELED_DESC };
  const cancel = db.transaction(
    (accountId: number, sessionNo: string, e164: string | undefined, now: number) => {
      const at = Math.floor(now / 1000);
      const rows =
        e164 === undefined
          ? all.all(at, sessionNo, accountId)
          : one.all(at, sessionNo, accountId, e164);
      return announce(rows, canceled, now);
    },
  );
  const cancelOne = db.transaction((accountId: number, messageId: string, now: number) =>
    announce(business.all(Math.floor(now / 1000), accountId, messageId), canceled, now),
  );
  const expireSome = db.transaction((now: number, limit: number) =>
    announce(
      expire.all(Math.floor(now / 1000), now, limit),
      { code: EXPIRED_CODE, desc: EXPIRED_DESC },
      now,
    ),
  );
  return {
    async cancelQueued(accountId, sessionNo, e164, now) {
      return cancel(accountId, sessionNo, e164, now);
    },
    async cancelQueuedBusiness(accountId, messageId, now) {
      return cancelOne(accountId, messageId, now) > 0;
    },
    async expireQueued(now, limit) {
      return expireSome(now, limit);
    },
  };
}
