import type { MessageStore } from '../../domain/ports.js';
import { CANCELLED_CODE, CANCELLED_DESC, cancelSql, type CancelledRow } from '../rows/cancel.js';
import type { Db } from './database.js';
import type { SqliteOutbox } from './outbox.js';

const Q = () => '?';

export function sqliteCancel(db: Db, outbox: SqliteOutbox): Pick<MessageStore, 'cancelQueued'> {
  const all = db.prepare<unknown[], CancelledRow>(cancelSql(Q, false));
  const one = db.prepare<unknown[], CancelledRow>(cancelSql(Q, true));
  const cancel = db.transaction(
    (accountId: number, sessionNo: string, e164: string | undefined, now: number) => {
      const at = Math.floor(now / 1000);
      const rows =
        e164 === undefined
          ? all.all(at, sessionNo, accountId)
          : one.all(at, sessionNo, accountId, e164);
      for (const r of rows) {
        const change = { id: r.id, accountId: r.account_id, kind: r.kind };
        const said = { status: 'failed', code: CANCELLED_CODE, desc: CANCELLED_DESC, at: now };
        outbox.messageChanged({ ...change, ...said, receiptTo: r.receipt_to }, now);
      }
      return rows.length;
    },
  );
  return {
    async cancelQueued(accountId, sessionNo, e164, now) {
      return cancel(accountId, sessionNo, e164, now);
    },
  };
}
