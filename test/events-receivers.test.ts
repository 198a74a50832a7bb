import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { emitOptIns, optInEndpoint } from './helpers/opt-in-events.js';
import { Receiver, type Received } from './helpers/receiver.js';

const EVENTS = 200;

type Misbehaviour = (r: Received, res: ServerResponse) => void | Promise<void>;

/** Receivers that misbehave in each way an application's server can; a healthy one beside. */
const MISBEHAVIOURS: [string, Misbehaviour, RegExp][] = [
  ['answers 500', (_r, res) => void res.writeHead(500).end('boom'), /^$|boom/],
  ['hangs for 60 s', () => undefined, /no answer within 1000 ms/],
  [
    'closes the connection',
    (_r, res) => {
      res.socket?.destroy();
    },
    /socket|closed|reset|ECONNRESET|UND_ERR/i,
  ],
];

describe('webhook receivers that fail', () => {
  let gw: TestGateway;
  let healthy: Receiver;
  let bad: Receiver;
  before(async () => {
    gw = await startTestGateway({
      webhooks: {
        allowPrivate: true,
        timeoutMs: 1000,
        pollMs: 10,
        probeMs: 200,
        retrySchedule: '300ms,300ms,300ms',
        concurrency: 8,
      },
    });
    // This suite's events carry data of its own making ({ N }), not the gateway's payloads.
    healthy = await new Receiver(false).start();
    bad = await new Receiver(false).start();
  });
  after(async () => {
    await gw.close();
    await healthy.close();
    await bad.close();
  });

  const endpoint = (url: string) => optInEndpoint(gw, url);
  const emit = (n: number) => emitOptIns(gw, n);

  for (const [name, misbehave, error] of MISBEHAVIOURS) {
    it(`one that ${name} is retried as specified; the other endpoint gets every event at once`, async () => {
      for (const e of await gw.store.listEndpoints(1))
        await gw.store.deleteEndpoint(1, e.endpointId);
      healthy.got.length = 0;
      bad.got.length = 0;
      bad.respond = misbehave;
      const good = await endpoint(healthy.url);
      const failing = await endpoint(bad.url);
      healthy.secrets = [good.secret];
      const started = Date.now();
      await emit(EVENTS);
      await eventually(async () => (healthy.got.length >= EVENTS ? true : undefined), 'all');
      const took = Date.now() - started;
      assert.ok(took < 5000, `the healthy endpoint got ${EVENTS} events in ${took} ms`);
      assert.ok(healthy.got.every((r) => r.verified));
      // The failing one: a first burst, then probed one attempt at a time; nothing lost.
      await eventually(async () => (bad.got.length >= 13 ? true : undefined), 'probes');
      const page = await gw.store.listDeliveries({
        accountId: 1,
        endpointId: failing.id,
        limit: EVENTS,
      });
      assert.equal(page.deliveries.length, EVENTS, 'every event kept for the failing endpoint');
      assert.ok(page.deliveries.every((d) => d.state === 'pending'));
      const tried = page.deliveries.filter((d) => d.attempts >= 1);
      assert.ok(
        tried.every((d) => d.nextAt !== undefined),
        'each failed one is due again',
      );
      assert.match(tried[0]?.lastError ?? '', error);
      // A first burst, what went out before the first failure came back: at most the endpoint's
      // concurrency (8), however long a loaded machine takes to send it; then probes, one at a
      // time. The burst ends at the first pause (the probe interval is 200 ms).
      const at = bad.got.map((r) => r.at);
      const gaps = at.slice(1).map((t, i) => t - (at[i] ?? 0));
      const burst = gaps.findIndex((gap) => gap >= 150) + 1;
      assert.ok(burst >= 1 && burst <= 8, `a first burst of ${burst} (gaps ${gaps.join(', ')})`);
      const probes = gaps.slice(burst);
      assert.ok(
        probes.every((gap) => gap >= 150),
        `probes ${probes.join(', ')} ms apart`,
      );
      assert.ok(tried.length < EVENTS, `${tried.length} of ${EVENTS} tried while failing`);
    });
  }

  it('a 50 MB answer is read up to its limit and the delivery counts', async () => {
    for (const e of await gw.store.listEndpoints(1)) await gw.store.deleteEndpoint(1, e.endpointId);
    const chunk = Buffer.alloc(1024 * 1024, 120);
    bad.got.length = 0;
    bad.respond = (_r, res) => {
      res.writeHead(200);
      let sent = 0;
      const more = () => {
        while (sent < 50) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('error', () => undefined);
      more();
    };
    const e = await endpoint(bad.url);
    const rss = process.memoryUsage().rss;
    await emit(5);
    await eventually(async () => {
      const p = await gw.store.listDeliveries({ accountId: 1, endpointId: e.id, limit: 10 });
      return p.deliveries.length === 5 && p.deliveries.every((d) => d.state === 'delivered')
        ? p
        : undefined;
    }, 'delivered despite the flood');
    const grew = (process.memoryUsage().rss - rss) / 1024 / 1024;
    assert.ok(grew < 100, `memory grew ${grew.toFixed(0)} MB for five 50 MB answers`);
  });
});
