import { performance } from 'node:perf_hooks';
import type { Db } from './database.js';
import { relaxedCommit } from './relaxed.js';
import type { WriteLock } from './write-lock.js';

/**
 * How a command's commit may treat the disk: `durable` waits for the write-ahead log to reach it
 * (the configured `synchronous`); `relaxed` is bookkeeping a later durable commit covers (a claim
 * before its outcome, the simulator's inbox before the submit it answers; see relaxed.ts).
 */
export type Durability = 'durable' | 'relaxed';

/** One transaction's bounds: past either, what is still queued commits in the next turn. */
export interface WriterLimits {
  maxCommands: number;
  maxMs: number;
}

export const WRITER_LIMITS: WriterLimits = { maxCommands: 4096, maxMs: 4 };

/**
 * The one writer on a connection: every write of the hot path is a command queued to it. Once per
 * turn of the event loop it runs whatever is queued in one `BEGIN IMMEDIATE … COMMIT`, each
 * command in a savepoint of its own (one that throws rolls back alone; its neighbours commit),
 * then settles every caller. Nothing settles before its commit, so no answer leaves before the
 * rows it promises are durable. A command queued on an idle writer runs on the next turn, with no
 * timer to wait for.
 */
export interface SqliteWriter {
  /** Queues `work` (synchronous statements) for this turn's transaction; settles after COMMIT. */
  run: <T>(work: () => T, durability?: Durability) => Promise<T>;
  /** Commits everything queued now, before the connection closes. */
  drain: () => void;
}

interface Command {
  work: () => unknown;
  durable: boolean;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
}

type Outcome = { ok: true; value: unknown } | { ok: false; err: unknown };

/**
 * `lock`, when other threads write to the same file: the writer waits for it without blocking, so
 * the thread serves its sockets while another thread commits, and what they bring joins the
 * transaction that follows.
 */
export function sqliteWriter(
  db: Db,
  limits: WriterLimits = WRITER_LIMITS,
  lock?: WriteLock,
): SqliteWriter {
  const commit = committer(db, limits);
  let queue: Command[] = [];
  let scheduled = false;

  const flushOnce = () => {
    const commands = queue;
    if (commands.length === 0) return;
    queue = [];
    let outcomes: Outcome[];
    try {
      outcomes = commit(commands);
    } catch (err) {
      // The COMMIT itself failed (or BEGIN did): none of the commands is stored.
      for (const c of commands) c.reject(err);
      return;
    }
    // A command's work may queue another: it waits behind those the bounds left.
    queue = [...commands.slice(outcomes.length), ...queue];
    outcomes.forEach((o, i) => {
      // The outcomes answer the first commands, one each, in order.
      const c = commands[i] as Command;
      if (o.ok) c.resolve(o.value);
      else c.reject(o.err);
    });
  };
  const flush = async () => {
    // Still scheduled while it waits for the lock: what comes meanwhile joins this transaction.
    if (lock) await lock.holdAsync(flushOnce);
    else flushOnce();
    scheduled = false;
    // What the bounds left waits a turn, so that the sockets are read in between.
    if (queue.length > 0) schedule();
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => void flush());
  };

  return {
    run: <T>(work: () => T, durability: Durability = 'durable') =>
      new Promise<T>((resolve, reject) => {
        const durable = durability === 'durable';
        // The command's value is the work's: `resolve` receives what `work` returned.
        queue.push({ work, durable, resolve: resolve as (value: unknown) => void, reject });
        schedule();
      }),
    drain: () => {
      while (queue.length > 0) flushOnce();
    },
  };
}

/**
 * One transaction over commands, up to the bounds, each in a savepoint of its own; answers the
 * outcomes of those it ran, in order. The commit waits for the disk unless every command queued
 * is relaxed (one cut off by the bounds can only make it wait). Throws when BEGIN or COMMIT fails.
 */
function committer(db: Db, limits: WriterLimits): (commands: readonly Command[]) => Outcome[] {
  const savepoint = db.transaction((work: () => unknown) => work());
  const runSome = (commands: readonly Command[]): Outcome[] => {
    const until = performance.now() + limits.maxMs;
    const outcomes: Outcome[] = [];
    for (const c of commands) {
      try {
        outcomes.push({ ok: true, value: savepoint(c.work) });
      } catch (err) {
        outcomes.push({ ok: false, err });
      }
      if (outcomes.length >= limits.maxCommands || performance.now() >= until) break;
    }
    return outcomes;
  };
  const tx = db.transaction(runSome);
  const durableTx = (commands: readonly Command[]) => tx.immediate(commands);
  const relaxedTx = relaxedCommit(db, durableTx);
  return (commands) => (commands.some((c) => c.durable) ? durableTx : relaxedTx)(commands);
}
