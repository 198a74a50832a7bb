import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config/config.js';
import { openStore } from '../src/store/open-store.js';
import { runStoreCli } from './helpers/cli.js';

/** `wirebird opt-outs import|export` on a SQLite data folder of the test's own. */
describe('wirebird opt-outs', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'wirebird-opt-outs-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: readonly string[]) => runStoreCli(join(dir, 'data'), args);

  it('imports a CSV, reporting refused rows by line, and exports what is stored', async () => {
    const csv = join(dir, 'stop.csv');
    writeFileSync(
      csv,
      'Name,Phone\nAda,+8613800000901\nBo,13800000902\nCy,abc\nDi,+8613800000901\n',
    );
    const missing = await run(['opt-outs', 'import', '--account', '9', csv]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^wirebird: no account 9: create a key for it first$/m);
    assert.equal((await run(['keys', 'create', '--account', '9'])).code, 0);
    const imported = await run(['opt-outs', 'import', '--account', '9', csv]);
    assert.equal(imported.code, 1, 'a refused row makes the run fail');
    assert.match(imported.stdout, /^2 numbers opted out, 1 already were, 1 rows refused$/m);
    assert.match(imported.stderr, /^line 4: Phone "abc" /m);
    const store = await openStore(loadConfig({ WIREBIRD_DATA_DIR: join(dir, 'data') }));
    try {
      const { optOuts } = await store.listOptOuts({ accountId: 9, limit: 10 });
      assert.deepEqual(
        optOuts.map((o) => [o.phone, o.source]),
        [
          ['+8613800000901', 'import'],
          ['+8613800000902', 'import'],
        ],
      );
    } finally {
      await store.close();
    }
    const out = join(dir, 'out.csv');
    const exported = await run(['opt-outs', 'export', '--account', '9', '--output', out]);
    assert.equal(exported.code, 0, exported.stderr);
    const lines = readFileSync(out, 'utf8').trim().split('\n');
    assert.equal(lines[0], 'Phone,Source,Keyword,CreateTime');
    assert.deepEqual(
      lines.slice(1).map((l) => l.split(',').slice(0, 2).join(',')),
      ['+8613800000901,import', '+8613800000902,import'],
    );
    const stdout = await run(['opt-outs', 'export', '--account', '9']);
    assert.equal(stdout.stdout.trim().split('\n').length, 3);
  });
});
