import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase, type Db } from './database.js';
import { relaxedCommit } from './relaxed.js';

const dir = mkdtempSync(join(tmpdir(), 'wirebird-relaxed-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
function open(synchronous?: 'FULL' | 'NORMAL'): Db {
  const db = openDatabase({ path: join(dir, `r${++n}.db`), synchronous });
  db.exec('CREATE TABLE t (v INTEGER)');
  return db;
}
/** A transaction of `fn` with a relaxed commit, as the writer makes one for its relaxed turns. */
const relaxed = <A extends unknown[], R>(db: Db, fn: (...args: A) => R) =>
  relaxedCommit(db, db.transaction(fn));
const level = (db: Db) => db.pragma('synchronous', { simple: true });
const values = (db: Db) => db.prepare('SELECT v FROM t ORDER BY v').pluck().all();

describe('relaxed transactions', () => {
  it('commit without waiting for the disk, then put FULL back', () => {
    const db = open();
    const seen: unknown[] = [];
    const write = relaxed(db, (v: number) => {
      seen.push(level(db));
      db.prepare('INSERT INTO t VALUES (?)').run(v);
      return v * 2;
    });
    assert.equal(write(21), 42);
    assert.deepEqual(seen, [1]);
    assert.equal(level(db), 2);
    assert.deepEqual(values(db), [21]);
  });

  it('roll back and put FULL back when the work throws', () => {
    const db = open();
    const fail = relaxed(db, () => {
      db.prepare('INSERT INTO t VALUES (1)').run();
      throw new Error('no');
    });
    assert.throws(fail, /no/);
    assert.equal(level(db), 2);
    assert.deepEqual(values(db), []);
  });

  it('inside a durable transaction, join it and leave its commit FULL', () => {
    const db = open();
    const inner = relaxed(db, () => {
      assert.equal(level(db), 2);
      db.prepare('INSERT INTO t VALUES (2)').run();
    });
    const outer = db.transaction(() => {
      inner();
      throw new Error('outer fails');
    });
    assert.throws(outer, /outer fails/);
    assert.deepEqual(values(db), []);
  });

  it('leave a store configured NORMAL as it is', () => {
    const db = open('NORMAL');
    relaxed(db, () => db.prepare('INSERT INTO t VALUES (3)').run())();
    assert.equal(level(db), 1);
    assert.deepEqual(values(db), [3]);
  });
});
