import assert from 'node:assert/strict';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { threadId, Worker } from 'node:worker_threads';
import { openDatabase } from './database.js';
import { lockWrites, WriteLock } from './write-lock.js';

const dir = mkdtempSync(join(tmpdir(), 'wirebird-lock-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

/** A lock another (pretend) thread holds, and a short patience so that the wait ends fast. */
function heldElsewhere(): WriteLock {
  const buffer = new SharedArrayBuffer(4);
  new Int32Array(buffer)[0] = 999;
  return new WriteLock(buffer, 20);
}

// A thread that takes the lock through the cell itself (slot 0), says so (slot 1 = 1), then
// writes slot 2 = 7 before it lets go: once the test has had time to start waiting (50 ms), or,
// with holdMs, when the test sets slot 3.
const HOLDER = `
const { workerData } = require('node:worker_threads');
const cell = new Int32Array(workerData.buffer);
const flags = new Int32Array(workerData.flags);
const me = require('node:worker_threads').threadId + 1;
while (Atomics.compareExchange(cell, 0, 0, me) !== 0) Atomics.wait(cell, 0, Atomics.load(cell, 0), 10);
Atomics.store(flags, 1, 1);
Atomics.notify(flags, 1);
Atomics.wait(flags, 3, 0, workerData.holdMs ?? 50);
Atomics.store(flags, 2, 7);
if (!workerData.die) { Atomics.store(cell, 0, 0); Atomics.notify(cell, 0); }
`;

async function holderThread(lock: WriteLock, die: boolean, holdMs?: number) {
  const flags = new Int32Array(new SharedArrayBuffer(16));
  const worker = new Worker(HOLDER, {
    eval: true,
    workerData: { buffer: lock.buffer, flags: flags.buffer, die, holdMs },
  });
  Atomics.wait(flags, 1, 0, 5000);
  return { worker, flags };
}

describe('the write lock', () => {
  it('makes a thread wait until the holder lets go', async () => {
    const lock = new WriteLock();
    const { worker, flags } = await holderThread(lock, false);
    // The holder writes slot 2 just before it releases: whoever gets the lock next sees it.
    const seen = lock.hold(() => Atomics.load(flags, 2));
    assert.equal(seen, 7);
    await once(worker, 'exit');
  });

  it('waits no longer than its patience for a holder that died, and is freed for that thread', async () => {
    const lock = new WriteLock(undefined, 100);
    const { worker } = await holderThread(lock, true);
    const threadId = worker.threadId;
    await once(worker, 'exit');
    const cell = new Int32Array(lock.buffer);
    // Past the patience the work runs without the lock (SQLite's own lock decides) and leaves
    // the cell to its holder.
    assert.equal(
      lock.hold(() => Atomics.load(cell, 0)),
      threadId + 1,
    );
    assert.equal(lock.releaseIfHeldBy(threadId + 1), false);
    assert.equal(lock.releaseIfHeldBy(-1), false);
    assert.equal(lock.releaseIfHeldBy(threadId), true);
    assert.equal(
      lock.hold(() => Atomics.load(cell, 0)),
      1,
    );
    assert.equal(Atomics.load(cell, 0), 0);
  });

  it('waits for it without blocking the thread when asked to (holdAsync)', async () => {
    const lock = new WriteLock();
    const { worker, flags } = await holderThread(lock, false, 10_000);
    const order: string[] = [];
    const held = lock.holdAsync(() => {
      order.push('held');
      return Atomics.load(flags, 2);
    });
    // The thread goes on while the other holds the lock; the work waits for its release.
    await new Promise((resolve) => setImmediate(resolve));
    order.push('turn');
    Atomics.store(flags, 3, 1);
    Atomics.notify(flags, 3);
    assert.equal(await held, 7);
    assert.deepEqual(order, ['turn', 'held']);
    assert.equal(Atomics.load(new Int32Array(lock.buffer), 0), 0, 'released after');
    assert.equal(await lock.holdAsync(() => lock.hold(() => 'inner')), 'inner');
    await once(worker, 'exit');
  });

  it('while waiting without blocking, is woken by the release of a holder that died', async () => {
    // A patience far longer than the test: only the release can end the wait in time.
    const lock = new WriteLock(undefined, 60_000);
    const { worker } = await holderThread(lock, true);
    const exitedId = worker.threadId;
    const cell = new Int32Array(lock.buffer);
    const held = lock.holdAsync(() => Atomics.load(cell, 0));
    await once(worker, 'exit');
    assert.equal(lock.releaseIfHeldBy(exitedId), true);
    // Taken by this thread, not written past the patience without it.
    assert.equal(await held, threadId + 1);
    assert.equal(Atomics.load(cell, 0), 0);
  });

  it('is re-entrant on the thread that holds it', () => {
    const lock = new WriteLock();
    assert.equal(
      lock.hold(() => lock.hold(() => 'inner')),
      'inner',
    );
  });
});

describe('a connection whose writes take the lock', () => {
  /** A connection whose SQL can ask who holds the lock while a statement runs: holder(). */
  const open = (lock: WriteLock) => {
    const db = openDatabase({ path: join(dir, `l${++n}.db`) });
    db.exec('CREATE TABLE t (v INTEGER)');
    db.exec('INSERT INTO t VALUES (1)');
    const cell = new Int32Array(lock.buffer);
    db.function('holder', { deterministic: false }, () => Atomics.load(cell, 0));
    return lockWrites(db, lock);
  };
  const me = threadId + 1;

  it('holds it while a statement, a RETURNING, a transaction or exec writes', () => {
    const lock = new WriteLock();
    const db = open(lock);
    const insert = db.prepare('INSERT INTO t VALUES (holder())');
    insert.run();
    assert.deepEqual(db.prepare('UPDATE t SET v = holder() RETURNING v').raw(true).all(), [
      [me],
      [me],
    ]);
    db.transaction(() => insert.run())();
    db.transaction(() => insert.run()).immediate();
    db.exec('INSERT INTO t VALUES (holder())');
    const seen = db.prepare('SELECT v FROM t').pluck().all();
    assert.deepEqual(seen, [me, me, me, me, me]);
    assert.equal(Atomics.load(new Int32Array(lock.buffer), 0), 0, 'released after each');
  });

  it('reads without it', () => {
    const lock = new WriteLock();
    const db = open(lock);
    assert.deepEqual(db.prepare('SELECT holder(), v FROM t').raw(true).all(), [[0, 1]]);
  });

  it('writes without it once its patience ran out, leaving it to the holder', () => {
    const db = open(heldElsewhere());
    db.prepare('INSERT INTO t VALUES (holder())').run();
    db.transaction(() => db.prepare('INSERT INTO t VALUES (holder())').run())();
    assert.deepEqual(db.prepare('SELECT v FROM t ORDER BY rowid').pluck().all(), [1, 999, 999]);
  });
});
