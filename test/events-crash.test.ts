import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { loadConfig } from '../src/config/config.js';
import { webhookId } from '../src/domain/events/event.js';
import { openStore } from '../src/store/open-store.js';
import { sqliteOnly } from './helpers/gateway.js';
import { approvedTemplate, batch, call, pause } from './helpers/process-api.js';
import { freePort, kill, spawnGateway, type GatewayProcess } from './helpers/process-gateway.js';
import { Receiver } from './helpers/receiver.js';

const BATCHES = 20;
const PER_BATCH = 1000;
const TOTAL = BATCHES * PER_BATCH;
const CONFIG = {
  simDelayMs: 0,
  templateReview: 'manual',
  // A short timeout makes the lease short (2 × timeout + 5 s): the restart picks up quickly.
  webhooks: { allowPrivate: true, timeoutMs: 1000, pollMs: 10, concurrency: 16 },
};

/** The ids of deliveries the store had recorded as delivered when the gateway died. */
async function deliveredIn(dataDir: string): Promise<Set<string>> {
  const store = await openStore(loadConfig({ WIREBIRD_DATA_DIR: dataDir }));
  try {
    const ids = new Set<string>();
    let before: { eventId: number; endpointId: string } | undefined;
    do {
      const page = await store.listDeliveries({
        accountId: 1,
        state: 'delivered',
        limit: 1000,
        ...(before ? { before } : {}),
      });
      for (const d of page.deliveries) ids.add(webhookId(d.eventId));
      before = page.nextCursor;
    } while (before);
    return ids;
  } finally {
    await store.close();
  }
}

describe('events survive a kill -9 mid-delivery', sqliteOnly, () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wirebird-events-crash-'));
  let gw: GatewayProcess | undefined;
  const rx = new Receiver();
  after(async () => {
    if (gw) await kill(gw.child, 'SIGKILL');
    await rx.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('delivers every one of 20,000 events at least once, duplicates only those in flight', async () => {
    await rx.start();
    // A receiver a little slow to answer, so that the kill lands with deliveries in flight.
    rx.respond = async (_r, res) => {
      await pause(2);
      res.writeHead(200).end();
    };
    const port = await freePort();
    gw = await spawnGateway(dataDir, port, CONFIG);
    const created = await call(gw, {
      Action: 'CreateWebhookEndpoint',
      Url: rx.url,
      EventTypes: ['message.receipt'],
    });
    assert.equal(created.RetCode, 0, created.Message as string);
    rx.secrets = [created.Secret as string];
    const templateId = await approvedTemplate(gw);
    for (let b = 0; b < BATCHES; b++) {
      const answer = await call(gw, batch(templateId, b, PER_BATCH));
      assert.equal(answer.SuccessCount, PER_BATCH);
    }
    // Looked at as they arrive, 20,000 of them: each id is read once.
    const ids = new Set<string>();
    let read = 0;
    const distinct = () => {
      for (const r of rx.got.slice(read)) ids.add(r.id);
      read = rx.got.length;
      return ids.size;
    };
    await rx.until(() => distinct() >= 3000);
    await kill(gw.child, 'SIGKILL');
    // Once it is dead and every request it sent is read (a busy machine reads them late): what
    // reached the receiver by then, answered or not.
    await rx.quiet();
    const receivedBeforeKill = new Set(rx.got.map((r) => r.id));
    const gotAtKill = rx.got.length;
    assert.ok(receivedBeforeKill.size < TOTAL, `killed mid-delivery (${receivedBeforeKill.size})`);
    const recorded = await deliveredIn(dataDir);
    // Received but not yet recorded as delivered: the deliveries in flight at the kill.
    const inFlight = new Set([...receivedBeforeKill].filter((id) => !recorded.has(id)));

    gw = await spawnGateway(dataDir, port, CONFIG);
    await rx.until(() => distinct() === TOTAL);
    assert.equal(distinct(), TOTAL, 'every event reached the receiver');
    assert.ok(
      rx.got.every((r) => r.verified),
      'every delivery verifies with standardwebhooks',
    );
    const seen = new Map<string, number>();
    for (const r of rx.got) seen.set(r.id, (seen.get(r.id) ?? 0) + 1);
    const duplicates = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    const stray = duplicates.filter((id) => !inFlight.has(id));
    assert.deepEqual(stray, [], 'only deliveries in flight at the kill came twice');
    console.log(
      `events crash: ${receivedBeforeKill.size} received before the kill (${gotAtKill} requests), ` +
        `${inFlight.size} in flight, ${duplicates.length} delivered twice, ${rx.got.length} requests in all`,
    );
  });
});
