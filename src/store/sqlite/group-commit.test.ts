import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { openDatabase, type Db } from './database.js';
import { groupCommit } from './group-commit.js';

const dir = mkdtempSync(join(tmpdir(), 'wirebird-group-commit-'));
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

describe('group commit', () => {
  it('settles each piece of work with its own result once it is committed', async () => {
    const { db, path } = open();
    const commit = groupCommit(db);
    const other = new Database(path, { readonly: true });
    const seen = await commit(insert(db, 1)).then((v) => ({
      v,
      // Another connection sees only what is committed.
      there: other.prepare('SELECT count(*) FROM t').pluck().get(),
    }));
    other.close();
    assert.deepEqual(seen, { v: 1, there: 1 });
  });

  it('rolls back only the work that threw; the rest of its group commits', async () => {
    const { db } = open();
    const commit = groupCommit(db);
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
    const commit = groupCommit(db);
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
});
