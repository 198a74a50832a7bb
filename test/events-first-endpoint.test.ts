import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { ENDPOINT_CHECK_MS } from '../src/outbox/first-endpoint.js';
import { runStoreCli } from './helpers/cli.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { ManualTime } from './helpers/manual-time.js';
import { Receiver } from './helpers/receiver.js';

/**
 * A gateway with no endpoint runs no outbox thread (docs/events.md): an endpoint created behind
 * its back, by `wirebird webhooks create` on its store as an operator would, starts delivery at
 * the gateway's next look, and the event written before it is delivered.
 */
describe('event delivery starts with the first endpoint', () => {
  const time = new ManualTime(Date.now());
  const rx = new Receiver();
  let gw: TestGateway;
  before(async () => {
    await rx.start();
    gw = await startTestGateway({ webhooks: { allowPrivate: true } }, pino({ level: 'silent' }), {
      clock: time,
      scheduler: time,
    });
  });
  after(async () => {
    await gw.close();
    await rx.close();
  });

  const cli = async (args: string[]) => {
    const env = { ...gw.storeEnv, WIREBIRD_WEBHOOK_ALLOW_PRIVATE: '1' };
    const run = await runStoreCli(gw.dataDir, ['webhooks', ...args], env);
    assert.equal(run.code, 0, run.stderr);
    return run.stdout;
  };

  it('an endpoint the CLI created gets its test event once the gateway looks again', async () => {
    const created = await cli(['create', '-a', '1', '-u', rx.url, '-t', 'message.inbound']);
    const id = /EndpointId\s+(we_\S+)/.exec(created)?.[1] as string;
    rx.secrets = [/Secret\s+(whsec_\S+)/.exec(created)?.[1] as string];
    const eventId = /^(evt_\d+) queued$/m.exec(await cli(['test', '-a', '1', '-e', id]))?.[1];
    assert.ok(eventId);
    await time.advance(ENDPOINT_CHECK_MS);
    const got = await eventually(
      async () => rx.got.find((r) => r.id === eventId),
      `${eventId} at the receiver`,
    );
    assert.equal(got.type, 'webhook.test');
    assert.ok(got.verified, 'signed with the secret the CLI printed');
  });
});
