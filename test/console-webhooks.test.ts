import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { consoleLogin, type ConsoleClient } from './helpers/console-client.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { Receiver } from './helpers/receiver.js';
import { accountKey, cn } from './helpers/sending.js';

/** The console's Webhooks and Opt-outs pages, over HTTP as a browser posts its forms. */
describe('console: webhooks and opt-outs', () => {
  let gw: TestGateway;
  let rx: Receiver;
  let viewer: ConsoleClient;
  before(async () => {
    gw = await startTestGateway({ webhooks: { allowPrivate: true, pollMs: 10 } });
    rx = await new Receiver().start();
    viewer = await consoleLogin(gw.url, gw.key);
  });
  after(async () => {
    await gw.close();
    await rx.close();
  });

  it('adds an endpoint (secret shown once), sends a test event, shows and replays the delivery', async () => {
    await viewer.get('/console/webhooks');
    const created = await viewer.post('/console/webhooks', {
      url: rx.url,
      description: 'app',
      types: 'message.inbound',
    });
    assert.equal(created.status, 200, created.text);
    const secret = /class="secret">([^<]+)</.exec(created.text)?.[1];
    assert.match(secret ?? '', /^whsec_/);
    rx.secrets = [secret as string];
    const [endpoint] = await gw.store.listEndpoints(1);
    assert.deepEqual([endpoint?.url, endpoint?.eventTypes], [rx.url, ['message.inbound']]);
    const id = endpoint?.endpointId as string;
    const listed = await viewer.get('/console/webhooks');
    assert.ok(
      listed.text.includes(id) && !listed.text.includes(secret as string),
      'never shown again',
    );

    const test = await viewer.post(`/console/webhooks/${id}/test`, { account: '1' });
    assert.equal(test.status, 303);
    const got = await eventually(async () => rx.ofType('webhook.test')[0], 'the test event');
    assert.equal(got.verified, true);
    const eventId = got.id.slice('evt_'.length);
    await eventually(
      async () =>
        (await gw.store.listDeliveries({ accountId: 1, limit: 1 })).deliveries[0]?.state ===
        'delivered'
          ? true
          : undefined,
      'delivered',
    );
    const detail = await viewer.get(`/console/webhooks/deliveries/${id}/${eventId}`);
    assert.equal(detail.status, 200);
    assert.ok(
      detail.text.includes('webhook.test') && detail.text.includes('200'),
      'attempts and body',
    );
    assert.equal(
      (await viewer.post(`/console/webhooks/${id}/replay`, { account: '1', eventId })).status,
      303,
    );
    await eventually(
      async () => (rx.got.filter((r) => r.id === got.id).length === 2 ? true : undefined),
      'replayed',
    );

    assert.equal(
      (await viewer.post(`/console/webhooks/${id}/disable`, { account: '1' })).status,
      303,
    );
    assert.equal((await gw.store.getEndpoint(1, id))?.disabled, true);
    const other = await consoleLogin(gw.url, await accountKey(gw, 7));
    await other.get('/console/webhooks');
    const refused = await other.post(`/console/webhooks/${id}/delete`, { account: '1' });
    assert.equal(refused.status, 404, 'another account acts on its own endpoints only');
    assert.ok(await gw.store.getEndpoint(1, id));
  });

  it('an internal URL is refused on the page as in the API', async () => {
    const strict = await startTestGateway();
    try {
      const c = await consoleLogin(strict.url, strict.key);
      await c.get('/console/webhooks');
      const r = await c.post('/console/webhooks', { url: 'http://169.254.169.254/latest' });
      assert.equal(r.status, 400);
      assert.match(r.text, /Url resolves to 169\.254\.169\.254/);
    } finally {
      await strict.close();
    }
  });

  it('opts numbers out and back in, and saves the keywords', async () => {
    await viewer.get('/console/opt-outs');
    const added = await viewer.post('/console/opt-outs', {
      account: '1',
      phones: `${cn(901)}\n13800000902`,
    });
    assert.equal(added.status, 303);
    const page = await viewer.get('/console/opt-outs');
    assert.ok(page.text.includes(cn(901)) && page.text.includes(cn(902)));
    assert.deepEqual([...(await gw.store.optedOutAmong(1, [cn(901), cn(902)]))].sort(), [
      cn(901),
      cn(902),
    ]);
    await viewer.post('/console/opt-outs/remove', { account: '1', phone: cn(901) });
    assert.deepEqual([...(await gw.store.optedOutAmong(1, [cn(901)]))], []);
    const bad = await viewer.post('/console/opt-outs', { account: '1', phones: 'abc' });
    assert.equal(bad.status, 400);
    const saved = await viewer.post('/console/opt-outs/settings', {
      account: '1',
      out: 'STOP, ALTO',
      in: 'START',
      exempt: 'on',
    });
    assert.equal(saved.status, 303);
    assert.deepEqual(await gw.store.optOutSettings(1), {
      optOutKeywords: ['STOP', 'ALTO'],
      optInKeywords: ['START'],
      exemptVerification: true,
    });
    const clash = await viewer.post('/console/opt-outs/settings', {
      account: '1',
      out: 'STOP',
      in: 'stop',
    });
    assert.equal(clash.status, 400);
    assert.match(clash.text, /a word does one thing/);
  });
});
