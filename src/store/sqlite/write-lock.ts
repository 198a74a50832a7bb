import type Database from 'better-sqlite3';
import { threadId } from 'node:worker_threads';
import type { Db } from './database.js';

/** How long a thread waits for another's write before it gives up, as SQLite's busy_timeout. */
export const WRITE_LOCK_LIMIT_MS = 30_000;

/**
 * One writer at a time among the threads of one process that share a SQLite file. SQLite allows
 * only one writer too, but a connection that finds the file locked sleeps in steps of 1 to 100
 * ms before it looks again; this lock wakes the next writer the moment the last one is done.
 * It lives in shared memory: the cell holds 0 when free, else the holder's thread id + 1.
 */
export class WriteLock {
  readonly buffer: SharedArrayBuffer;
  private readonly cell: Int32Array;
  private readonly me = threadId + 1;
  private depth = 0;

  constructor(
    buffer: SharedArrayBuffer = new SharedArrayBuffer(4),
    private readonly limitMs = WRITE_LOCK_LIMIT_MS,
  ) {
    this.buffer = buffer;
    this.cell = new Int32Array(buffer);
  }

  /** Runs `fn` holding the lock; a thread that already holds it just runs `fn`. */
  hold<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    this.acquire();
    this.depth = 1;
    try {
      return fn();
    } finally {
      this.depth = 0;
      Atomics.store(this.cell, 0, 0);
      Atomics.notify(this.cell, 0);
    }
  }

  /** Frees the lock if the thread that died held it: a dead thread cannot release it itself. */
  releaseIfHeldBy(deadThreadId: number): boolean {
    if (deadThreadId < 0) return false;
    const held = deadThreadId + 1;
    if (Atomics.compareExchange(this.cell, 0, held, 0) !== held) return false;
    Atomics.notify(this.cell, 0);
    return true;
  }

  private acquire(): void {
    const deadline = Date.now() + this.limitMs;
    for (;;) {
      const holder = Atomics.compareExchange(this.cell, 0, 0, this.me);
      if (holder === 0) return;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(
          `database is locked: thread ${holder - 1} held the write lock for over ${this.limitMs} ms`,
        );
      }
      Atomics.wait(this.cell, 0, holder, Math.min(left, 1000));
    }
  }
}

type Statement = Database.Statement<unknown[], unknown>;

/**
 * Makes every write on `db` take `lock`: transactions and statements that write, when they run
 * outside a transaction. Reads never wait: in WAL mode a reader sees the last commit.
 */
export function lockWrites(db: Db, lock: WriteLock): Db {
  const prepare = db.prepare.bind(db) as (source: string) => Statement;
  db.prepare = ((source: string) => lockedStatement(prepare(source), lock)) as Db['prepare'];
  const transaction = db.transaction.bind(db);
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = transaction(fn);
    const locked = (run: (...args: unknown[]) => unknown) =>
      function (this: unknown, ...args: unknown[]) {
        return lock.hold(() => run.apply(this, args));
      };
    return Object.assign(locked(tx), {
      default: locked(tx.default),
      deferred: locked(tx.deferred),
      immediate: locked(tx.immediate),
      exclusive: locked(tx.exclusive),
      database: db,
    });
  }) as Db['transaction'];
  const exec = db.exec.bind(db);
  db.exec = (source: string) => lock.hold(() => exec(source));
  return db;
}

function lockedStatement(statement: Statement, lock: WriteLock): Statement {
  if (statement.readonly) return statement;
  const { run, get, all } = statement;
  statement.run = (...args: unknown[]) => lock.hold(() => run.apply(statement, args));
  statement.get = (...args: unknown[]) => lock.hold(() => get.apply(statement, args));
  statement.all = (...args: unknown[]) => lock.hold(() => all.apply(statement, args));
  return statement;
}
