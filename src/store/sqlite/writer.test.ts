import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase, type Db } from './database.js';
import { lockWrites, WriteLock } from './write-lock.js';
import { sqliteWriter } from './writer.js';

const dir = mkdtempSync(join(tmpdir(), 'wirebird-writer-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function open(): { db: Db; path: string } {
  const path = join(dir, `g${++n}.db`);
  const db = openDatabase({ path });
  db.pragma('foreign_keys = ON');
  db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
    CREATE TABLE t (v INTEGER, parent INTEGER REFERENCES parent (id) DEFERRABLE INITIALLY DEFERRED)`);
  return { db, path };
}
const insert =
  (db: Db, v: number, parent: number | null = null) =>
  () => {
    db.prepare('INSERT INTO t (v, parent) VALUES (?, ?)').run(v, parent);
    return v;
  };
const stored = (db: Db) => db.prepare('SELECT v FROM t ORDER BY v').pluck().all();

describe('the writer: one transaction per turn', () => {
  it('settles each piece of work with its own result once it is committed', async () => {
    const { db, path } = open();
    const commit = sqliteWriter(db).run;
    const other = new Database(path, { readonly: true });
    const seen = await commit(insert(db, 1)).then((v: number) => ({
      v,
      // Another connection sees only what is committed.
      there: other.prepare('SELECT count(*) FROM t').pluck().get(),
    }));
    other.close();
    assert.deepEqual(seen, { v: 1, there: 1 });
  });

  it('rolls back only the work that threw; the rest of its group commits', async () => {
    const { db } = open();
    const commit = sqliteWriter(db).run;
    const results = await Promise.allSettled([
      commit(insert(db, 1)),
      commit(() => {
        insert(db, 2)();
        throw new Error('refused');
      }),
      commit(insert(db, 3)),
    ]);
    assert.deepEqual(
      results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message)),
      [1, 'refused', 3],
    );
    assert.deepEqual(stored(db), [1, 3]);
  });

  it('commits the work queued in one turn together: a failing COMMIT fails all of it', async () => {
    const { db } = open();
    const commit = sqliteWriter(db).run;
    // The deferred foreign key is only checked at COMMIT, after every savepoint succeeded.
    const group = [commit(insert(db, 1)), commit(insert(db, 2, 99)), commit(insert(db, 3))];
    const results = await Promise.allSettled(group);
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected', 'rejected'],
    );
    assert.deepEqual(stored(db), []);
    // Work of a later turn is a group of its own.
    assert.equal(await commit(insert(db, 4)), 4);
    assert.deepEqual(stored(db), [4]);
  });

  it('commits what is past its bounds in the next turn, each command after its own commit', async () => {
    const { db, path } = open();
    const writer = sqliteWriter(db, { maxCommands: 2, maxMs: 1_000 });
    const other = new Database(path, { readonly: true });
    const count = other.prepare('SELECT count(*) FROM t').pluck();
    const seen = await Promise.all(
      [1, 2, 3, 4, 5].map((v) => writer.run(insert(db, v)).then(() => count.get())),
    );
    other.close();
    // Two transactions of two, then one of one: each settles once its own rows are there.
    assert.deepEqual(seen, [2, 2, 4, 4, 5]);
  });

  it('relaxes the commit only when every command of the turn is relaxed', async () => {
    const { db } = open();
    const writer = sqliteWriter(db);
    const level = () => db.pragma('synchronous', { simple: true });
    const relaxedOnly = await Promise.all([
      writer.run(level, 'relaxed'),
      writer.run(level, 'relaxed'),
    ]);
    const mixed = await Promise.all([writer.run(level, 'relaxed'), writer.run(level)]);
    // 1 is NORMAL (no wait for the disk), 2 the configured FULL.
    assert.deepEqual(
      { relaxedOnly, mixed, after: level() },
      { relaxedOnly: [1, 1], mixed: [2, 2], after: 2 },
    );
  });

  it('runs a command queued by another, and drain commits what is queued before a close', async () => {
    const { db, path } = open();
    const writer = sqliteWriter(db);
    let inner: Promise<number> | undefined;
    const outer = writer.run(() => {
      inner = writer.run(insert(db, 2));
      return insert(db, 1)();
    });
    const last = writer.run(insert(db, 3));
    writer.drain();
    db.close();
    const reopened = new Database(path, { readonly: true });
    const rows = reopened.prepare('SELECT v FROM t ORDER BY v').pluck().all();
    reopened.close();
    assert.deepEqual(
      { rows, settled: await Promise.all([outer, inner, last]) },
      { rows: [1, 2, 3], settled: [1, 2, 3] },
    );
  });

  it('waits for another thread to commit without blocking, then commits what came meanwhile', async () => {
    const lock = new WriteLock();
    const cell = new Int32Array(lock.buffer);
    // Another thread (pretend: id 999) holds the lock.
    Atomics.store(cell, 0, 999);
    const { db } = open();
    const writer = sqliteWriter(lockWrites(db, lock), undefined, lock);
    const order: string[] = [];
    const command = (v: number) =>
      writer
        .run(() => {
          order.push(`run ${v}`);
          return insert(db, v)();
        })
        .then(() => order.push(`settled ${v}`));
    const first = command(1);
    // Turns pass while the lock is held elsewhere: this thread is not blocked, nothing commits.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    const second = command(2);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(order, []);
    Atomics.store(cell, 0, 0);
    Atomics.notify(cell, 0);
    await Promise.all([first, second]);
    // One transaction: both ran before either settled.
    assert.deepEqual(order, ['run 1', 'run 2', 'settled 1', 'settled 2']);
    assert.deepEqual(stored(db), [1, 2]);
    assert.equal(Atomics.load(cell, 0), 0);
  });
});
