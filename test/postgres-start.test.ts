import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { checkConfig } from '../src/config/config.js';
import { startGateway } from '../src/gateway/start-gateway.js';
import { createScratchSchema } from '../src/store/postgres/scratch-schema.js';

const url = process.env.WIREBIRD_TEST_DATABASE_URL;
const silent = pino({ level: 'silent' });

describe('starting on PostgreSQL', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wirebird-pg-start-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('names the server but never the password when the database cannot be reached', async () => {
    // Port 1 on the loopback: nothing listens there, the connection is refused at once.
    const config = checkConfig({
      port: 0,
      dataDir: dir,
      logLevel: 'silent',
      database: { url: 'postgres://wirebird:hunter2secret@127.0.0.1:1/wirebird' },
    });
    await assert.rejects(startGateway(config, silent), (e: Error) => {
      assert.match(
        e.message,
        /cannot open the PostgreSQL store at postgres:\/\/wirebird:\*+@127\.0\.0\.1:1\/wirebird/,
      );
      assert.doesNotMatch(e.message, /hunter2/);
      return true;
    });
  });

  it(
    'creates the data folder for its key files, which SQLite would have made',
    { skip: !url && 'WIREBIRD_TEST_DATABASE_URL is not set' },
    async () => {
      const scratch = await createScratchSchema(url as string);
      const dataDir = join(dir, 'not', 'there', 'yet');
      try {
        const config = checkConfig({
          port: 0,
          dataDir,
          logLevel: 'silent',
          database: { url: scratch.url },
        });
        const gw = await startGateway(config, silent);
        await gw.stop();
        assert.ok(gw.devAccount, 'a development account on an empty database');
        assert.ok(existsSync(join(dataDir, 'dev-account.key')));
        assert.ok(existsSync(join(dataDir, 'admin.key')));
        assert.ok(!existsSync(join(dataDir, 'wirebird.db')), 'no SQLite database beside it');
      } finally {
        await scratch.drop();
      }
    },
  );
});
