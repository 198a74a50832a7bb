import type { Db } from './database.js';

/**
 * Runs `tx` (a transaction function) with a commit that does not wait for the disk
 * (`synchronous = NORMAL`), for writes that are safe to lose with the machine's power: bookkeeping
 * that a later durable commit covers, since one fsync of the write-ahead log makes every frame
 * before it durable too (a claim before its outcome is recorded, the simulator's inbox before the
 * submit it answers). A process crash loses nothing either way; only a power failure can undo
 * such a commit, and the lease or the simulator's pending reports bring the work back. Inside
 * another transaction, `tx` joins it and that transaction's commit decides. The writer commits a
 * turn of only relaxed commands this way.
 */
export function relaxedCommit<A extends unknown[], R>(
  db: Db,
  tx: (...args: A) => R,
): (...args: A) => R {
  // pragma(..., { simple: true }) answers the pragma's one value: a number for synchronous.
  const durable = db.pragma('synchronous', { simple: true }) as number;
  // 0 OFF, 1 NORMAL, 2 FULL, 3 EXTRA: a store configured below FULL has nothing to relax.
  if (durable <= 1) return tx;
  // Compiled afresh each time (db.pragma does not cache): SQLite applies this pragma when it
  // compiles it, not when it runs. Nor does it take the write lock: it is the connection's own.
  return (...args) => {
    if (db.inTransaction) return tx(...args);
    db.pragma('synchronous = NORMAL');
    try {
      return tx(...args);
    } finally {
      db.pragma(`synchronous = ${durable}`);
    }
  };
}
