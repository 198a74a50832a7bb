import type { MessageStore } from '../../domain/ports.js';
import { CLAIM_COLUMNS, fromClaimValues, notExpired, type ClaimValues } from '../rows/messages.js';

const NOT_EXPIRED = notExpired('?');
import type { Db } from './database.js';
import type { SqliteWriter } from './writer.js';

/** Claims: due messages taken under a lease, and leases renewed while their submit runs. */
export function sqliteClaims(
  db: Db,
  writer: SqliteWriter,
): Pick<MessageStore, 'claimDue' | 'extendLeases'> {
  const claim = db.prepare<unknown[], ClaimValues>(
    `UPDATE messages SET state = 'submitting', attempts = attempts + 1, due_at = ?
     WHERE id IN (SELECT id FROM messages WHERE due_at <= ? AND ${NOT_EXPIRED} ORDER BY due_at LIMIT ?)
     RETURNING ${CLAIM_COLUMNS}`,
  );
  // Arrays, not objects: better-sqlite3 builds an object a property at a time.
  claim.raw(true);
  // A read takes no write lock (WAL): an idle dispatcher's poll looks first, and only a poll
  // that finds work waits for the lock the acceptance threads hold while they commit. A busy
  // one (its last claim found work) claims straight away, as it finds work nearly every time.
  const anyDue = db.prepare<unknown[], number>('SELECT 1 FROM messages WHERE due_at <= ? LIMIT 1');
  anyDue.pluck();
  let idle = true;
  const extendOne = db.prepare(
    `UPDATE messages SET due_at = ? WHERE id = ? AND state = 'submitting' AND attempts = ?`,
  );
  // A lost claim or renewal only makes its messages due sooner; the outcome's commit is durable.

  return {
    async claimDue(now, limit, leaseMs) {
      if (idle && anyDue.get(now) === undefined) return [];
      const until = now + leaseMs;
      const rows = await writer.run(() => claim.all(until, now, now, limit), 'relaxed');
      idle = rows.length === 0;
      return rows.map(fromClaimValues);
    },
    async extendLeases(claims, until) {
      await writer.run(() => {
        for (const c of claims) extendOne.run(until, c.id, c.attempt);
      }, 'relaxed');
    },
  };
}
