import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runStoreContract } from '../contract/store-contract.js';
import { LEASE, NOW, batch, only, sms } from '../contract/fixtures.js';
import { openSqliteStore } from './sqlite-store.js';
import { sqliteMigrations } from './migrations.js';
import {
  ISSUERS_SQL,
  ROWS_BEFORE_THE_SPLIT,
  SPLIT_ISSUERS,
  checkSplitIssuers,
} from '../contract/issuer-migration.js';

runStoreContract('sqlite (in memory)', async () => openSqliteStore({ path: ':memory:' }));

// The same suite on a file, as the gateway runs it: WAL journal, FULL synchronous.
const dir = mkdtempSync(join(tmpdir(), 'wirebird-store-contract-'));
after(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const onFile = () => join(dir, `store-${++files}.db`);
runStoreContract('sqlite (temp file)', async () => openSqliteStore({ path: onFile() }));

describe('sqlite store across a restart', () => {
  it('a message claimed before the process stopped is claimed again once its lease expires', async () => {
    const path = onFile();
    const before = openSqliteStore({ path });
    await before.acceptBatch(batch([sms()]));
    const claimed = only(await before.claimDue(NOW, 10, LEASE));
    await before.close();

    const reopened = openSqliteStore({ path });
    try {
      assert.deepEqual(await reopened.claimDue(NOW + LEASE - 1, 10, LEASE), []);
      const again = only(await reopened.claimDue(NOW + LEASE + 1, 10, LEASE));
      assert.deepEqual([again.id, again.attempts], [claimed.id, 2]);
    } finally {
      await reopened.close();
    }
  });
});

/** A database as the migrations before `version` left it, for a migration's test. */
function databaseBefore(path: string, version: number): Database.Database {
  const raw = new Database(path);
  raw.exec(
    'CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT, applied_at INTEGER)',
  );
  for (const m of sqliteMigrations.filter((x) => x.version < version)) {
    raw.exec(m.sql);
    raw.prepare('INSERT INTO schema_migrations VALUES (?, ?, 0)').run(m.version, m.name);
  }
  return raw;
}

describe('sqlite migrations', () => {
  it('refuse a database whose schema is newer than this code knows', async () => {
    const path = onFile();
    await openSqliteStore({ path }).close();
    const raw = new Database(path);
    raw
      .prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (999, ?, 0)')
      .run('future');
    raw.close();
    assert.throws(() => openSqliteStore({ path }), /schema version 999.*upgrade Wirebird/);
  });

  it('apply what is missing in one transaction: one that fails leaves the schema as it was', async () => {
    const path = onFile();
    const raw = databaseBefore(path, 25);
    // Version 25 would apply; 26 finds its table taken and fails.
    raw.exec('CREATE TABLE account_policies (taken INTEGER)');
    raw.close();
    assert.throws(() => openSqliteStore({ path }), /account_policies already exists/);
    const after = new Database(path);
    try {
      const newest = after.prepare('SELECT max(version) FROM schema_migrations').pluck().get();
      assert.equal(newest, 24);
      const validity = after
        .prepare("SELECT count(*) FROM pragma_table_info('messages') WHERE name = 'expires_at'")
        .pluck()
        .get();
      assert.equal(validity, 0, "version 25's column was rolled back with the rest");
    } finally {
      after.close();
    }
  });

  it('give the SMPP credentials and UCloud key pairs stored before version 21 their key records', async () => {
    const path = onFile();
    const raw = databaseBefore(path, 21);
    raw.exec(`INSERT INTO smpp_credentials VALUES ('old', 7, 'hash', '', 4, 1000, 10, ${NOW});
      INSERT INTO ucloud_keys VALUES ('wbpk_old', 7, 'sealed', ${NOW});`);
    raw.close();
    const store = openSqliteStore({ path });
    try {
      const records = (await store.listApiKeys(7)).sort((a, b) => a.kind.localeCompare(b.kind));
      assert.deepEqual(
        records.map((k) => [k.kind, k.keyHash, k.prefix, k.scopes, k.revokedAt, k.createdAt]),
        [
          ['smpp', 'smpp:old', 'old', [], undefined, NOW],
          ['ucloud', 'ucloud:wbpk_old', 'wbpk_old', [], undefined, NOW],
        ],
      );
      assert.ok(records.every((k) => /^key_[0-9a-f]{16}$/.test(k.keyId)));
      assert.equal(await store.countApiKeys(), 0, 'no API key among them');
    } finally {
      await store.close();
    }
  });

  it("split a route of 'smpp:<smsc>' written before version 23 into the route and its upstream", async () => {
    const path = onFile();
    const raw = databaseBefore(path, 23);
    for (const sql of ROWS_BEFORE_THE_SPLIT) raw.exec(sql);
    raw.close();
    const store = openSqliteStore({ path });
    try {
      await checkSplitIssuers(store);
    } finally {
      await store.close();
    }
    const after = new Database(path, { readonly: true });
    try {
      assert.deepEqual(after.prepare(ISSUERS_SQL).all(), SPLIT_ISSUERS);
    } finally {
      after.close();
    }
  });
});
