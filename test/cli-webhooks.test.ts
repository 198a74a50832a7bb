import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runStoreCli } from './helpers/cli.js';

/** `wirebird webhooks …` on a SQLite data folder of the test's own: the rules of the Actions. */
describe('wirebird webhooks', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'wirebird-webhooks-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const run = (args: readonly string[], env: Record<string, string> = {}) =>
    runStoreCli(dir, ['webhooks', ...args], env);
  const local = { WIREBIRD_WEBHOOK_ALLOW_PRIVATE: '1' };

  it('creates, lists, tests, disables, replays and deletes an endpoint', async () => {
    const refused = await run(['create', '-a', '1', '-u', 'http://127.0.0.1:9/in']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^wirebird: Url resolves to 127\.0\.0\.1/m);
    const created = await run(
      ['create', '-a', '1', '-u', 'http://127.0.0.1:9/in', '-t', 'message.inbound'],
      local,
    );
    assert.equal(created.code, 0, created.stderr);
    const id = /EndpointId\s+(we_\S+)/.exec(created.stdout)?.[1] as string;
    assert.match(created.stdout, /Secret\s+whsec_/);
    const listed = await run(['list', '-a', '1']);
    assert.match(
      listed.stdout,
      new RegExp(`^${id}\\tenabled\\tmessage\\.inbound\\thttp://127\\.0\\.0\\.1:9/in$`, 'm'),
    );
    assert.doesNotMatch(listed.stdout, /whsec_/);
    const tested = await run(['test', '-a', '1', '-e', id]);
    const eventId = /^(evt_\d+) queued$/m.exec(tested.stdout)?.[1] as string;
    assert.ok(eventId, tested.stderr);
    assert.match(
      (await run(['deliveries', '-a', '1'])).stdout,
      new RegExp(`^${eventId}\\twebhook\\.test\\t${id}\\tpending\\t0\\t`, 'm'),
    );
    assert.equal((await run(['disable', '-a', '1', '-e', id])).code, 0);
    assert.match((await run(['list', '-a', '1'])).stdout, /disabled \(disabled by its account\)/);
    assert.match(
      (await run(['replay', '-a', '1', '--event', eventId])).stdout,
      /^1 deliveries due again$/m,
    );
    const other = await run(['delete', '-a', '2', '-e', id]);
    assert.equal(other.code, 1);
    assert.match(other.stderr, new RegExp(`EndpointId ${id} not found`));
    assert.equal((await run(['delete', '-a', '1', '-e', id])).code, 0);
    assert.match((await run(['list', '-a', '1'])).stdout, /^no endpoints$/m);
  });
});
