import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config/config.js';
import { openStore } from '../src/store/open-store.js';
import { runStoreCli } from './helpers/cli.js';

/** The CLI's store commands, on a SQLite data folder of the test's own. */
describe('wirebird accounts region', () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'wirebird-accounts-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  const run = (args: readonly string[]) => runStoreCli(dataDir, args);

  const regionOf = async (accountId: number) => {
    const store = await openStore(loadConfig({ WIREBIRD_DATA_DIR: dataDir }));
    try {
      return await store.accountRegion(accountId);
    } finally {
      await store.close();
    }
  };

  it("sets and clears an account's region, and refuses what is not one", async () => {
    const missing = await run(['accounts', 'region', '--account', '9', '--region', 'US']);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^wirebird: no account 9: create a key for it first$/m);
    assert.equal((await run(['keys', 'create', '--account', '9'])).code, 0);
    const set = await run(['accounts', 'region', '--account', '9', '--region', 'us']);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /AccountId 9: numbers without a country code are read in US$/m);
    assert.equal(await regionOf(9), 'US');
    const bad = await run(['accounts', 'region', '--account', '9', '--region', 'XX']);
    assert.match(bad.stderr, /^wirebird: --region must be a two-letter region code/m);
    assert.equal(await regionOf(9), 'US');
    const cleared = await run(['accounts', 'region', '--account', '9', '--clear']);
    assert.match(cleared.stdout, /read in CN \(the gateway's\)$/m);
    assert.equal(await regionOf(9), undefined);
  });
});
