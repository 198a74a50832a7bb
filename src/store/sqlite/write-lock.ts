import type Database from 'better-sqlite3';
import { threadId } from 'node:worker_threads';
import type { Db } from './database.js';

/**
 * How long a thread waits for the lock before it writes without it. Far above any one write
 * transaction (a group commit of several 1000-row batches takes tens of ms); past it, the holder
 * is more likely dead than busy, and SQLite's own file lock (busy_timeout) decides instead.
 */
export const WRITE_LOCK_PATIENCE_MS = 2_000;

/**
 * One writer at a time among the threads of one process that share a SQLite file. SQLite allows
 * only one writer too, but a connection that finds the file locked sleeps in steps of 1 to 100
 * ms before it looks again; this lock wakes the next writer the moment the last one is done.
 * It lives in shared memory: the cell holds 0 when free, else the holder's thread id + 1.
 *
 * It only schedules writers: SQLite's lock is what keeps them apart. So a thread that waited
 * WRITE_LOCK_PATIENCE_MS writes anyway. That matters when the holder died (a worker killed
 * mid-write): a main thread blocked in `hold` cannot see the worker's exit until it stops
 * waiting, and the dead thread's connection, and SQLite's lock with it, is already gone. (A
 * writer waiting in `holdAsync` does see it: the exit handler's releaseIfHeldBy wakes it.)
 */
export class WriteLock {
  readonly buffer: SharedArrayBuffer;
  private readonly cell: Int32Array;
  private readonly me = threadId + 1;
  private depth = 0;

  constructor(
    buffer: SharedArrayBuffer = new SharedArrayBuffer(4),
    private readonly patienceMs = WRITE_LOCK_PATIENCE_MS,
  ) {
    this.buffer = buffer;
    this.cell = new Int32Array(buffer);
  }

  /** Runs `fn` holding the lock (or, past the patience, without it); re-entrant. */
  hold<T>(fn: () => T): T {
    if (this.depth > 0) return fn();
    return this.holding(this.acquire(), fn);
  }

  /**
   * Runs `fn` holding the lock, waiting for it without blocking the thread: while another thread
   * commits, this one goes on reading its sockets and queueing commands (the writer's next
   * transaction grows instead of the thread stalling). Past the patience it runs without it, as
   * `hold` does.
   */
  async holdAsync<T>(fn: () => T): Promise<T> {
    // Inside a hold already (a command of a transaction): this runs before the first await.
    if (this.depth > 0) return fn();
    return this.holding(await this.acquireAsync(), fn);
  }

  /** Runs `fn` as the holder; frees the lock after, when this thread took it. */
  private holding<T>(owned: boolean, fn: () => T): T {
    this.depth = 1;
    try {
      return fn();
    } finally {
      this.depth = 0;
      if (owned) {
        Atomics.store(this.cell, 0, 0);
        Atomics.notify(this.cell, 0);
      }
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

  /** acquire() without blocking: the wait is a promise the thread's event loop settles. */
  private async acquireAsync(): Promise<boolean> {
    const deadline = Date.now() + this.patienceMs;
    for (;;) {
      const look = this.look(deadline);
      if (typeof look === 'boolean') return look;
      const waited = Atomics.waitAsync(this.cell, 0, look.holder, look.left);
      if (waited.async) await waited.value;
    }
  }

  /** True once this thread holds the lock; false when the patience ran out first. */
  private acquire(): boolean {
    const deadline = Date.now() + this.patienceMs;
    for (;;) {
      const look = this.look(deadline);
      if (typeof look === 'boolean') return look;
      Atomics.wait(this.cell, 0, look.holder, look.left);
    }
  }

  /** One try: taken (true), patience spent (false), or whom to wait for and how long at most. */
  private look(deadline: number): boolean | { holder: number; left: number } {
    const holder = Atomics.compareExchange(this.cell, 0, 0, this.me);
    if (holder === 0) return true;
    const left = deadline - Date.now();
    return left <= 0 ? false : { holder, left };
  }
}

type Statement = Database.Statement;

/**
 * Makes every write on `db` take `lock`: transactions and statements that write, when they run
 * outside a transaction. Reads never wait: in WAL mode a reader sees the last commit.
 */
export function lockWrites(db: Db, lock: WriteLock): Db {
  // better-sqlite3's prepare and transaction are generic; a replacement that wraps them keeps
  // their behaviour but cannot spell their signatures, so each is cast back to its own type.
  const prepare = db.prepare.bind(db) as (source: string) => Statement;
  // (the same for prepare's replacement)
  db.prepare = ((source: string) => lockedStatement(prepare(source), lock)) as Db['prepare'];
  const transaction = db.transaction.bind(db);
  // (the same for transaction: wrapped, then cast back to its own type)
  db.transaction = ((fn: (...args: unknown[]) => unknown) => {
    const tx = transaction(fn);
    const locked = (run: (...args: unknown[]) => unknown) =>
      function (this: unknown, ...args: unknown[]) {
        return lock.hold(() => run.apply(this, args));
      };
    // The variants are plain functions that pass their caller's `this` on; `locked` does too.
    /* eslint-disable @typescript-eslint/unbound-method */
    return Object.assign(locked(tx), {
      default: locked(tx.default),
      deferred: locked(tx.deferred),
      immediate: locked(tx.immediate),
      exclusive: locked(tx.exclusive),
      database: db,
    });
    /* eslint-enable @typescript-eslint/unbound-method */
  }) as Db['transaction'];
  const exec = db.exec.bind(db);
  db.exec = (source: string) => lock.hold(() => exec(source));
  return db;
}

function lockedStatement(statement: Statement, lock: WriteLock): Statement {
  if (statement.readonly) return statement;
  const run = statement.run.bind(statement);
  const get = statement.get.bind(statement);
  const all = statement.all.bind(statement);
  statement.run = (...args: unknown[]) => lock.hold(() => run.apply(statement, args));
  statement.get = (...args: unknown[]) => lock.hold(() => get.apply(statement, args));
  statement.all = (...args: unknown[]) => lock.hold(() => all.apply(statement, args));
  return statement;
}
