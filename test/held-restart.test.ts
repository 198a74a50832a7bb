import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import pino from 'pino';
import { checkConfig } from '../src/config/config.js';
import { startGateway, type Gateway } from '../src/gateway/start-gateway.js';
import { createScratchSchema } from '../src/store/postgres/scratch-schema.js';
import { ManualTime } from './helpers/manual-time.js';
import { approvedTemplate, batch, call } from './helpers/process-api.js';
import { freePort, kill, spawnGateway } from './helpers/process-gateway.js';

const PER_BATCH = 500;
const HOUR_MS = 3_600_000;
const silent = pino({ level: 'silent' });

/** A gateway in this process on `where` (a data folder, or a database), its time the test's. */
function inProcess(where: Record<string, unknown>, time: ManualTime): Promise<Gateway> {
  const config = checkConfig({
    port: 0,
    host: '127.0.0.1',
    simDelayMs: 0,
    acceptThreads: 0,
    templateReview: 'manual',
    logLevel: 'silent',
    receiptTimeoutS: 24 * 3600,
    ...where,
  });
  return startGateway(config, silent, { clock: time, scheduler: time });
}

/** Moves the clock in dispatch-sized steps until `done`, at most `steps` of them. */
async function until(time: ManualTime, done: () => Promise<boolean>, what: string, steps = 200) {
  for (let i = 0; i < steps; i++) {
    if (await done()) return;
    await time.advance(250);
  }
  assert.fail(`not ${what} after ${steps} steps of the clock`);
}

/** Each number of `sessions` sent exactly once: one simulator inbox entry per number. */
async function sentOnce(gw: Gateway, phones: readonly string[]): Promise<void> {
  for (const phone of phones) {
    const entries = await gw.store.searchInbox({ phone, limit: 5 });
    assert.equal(entries.length, 1, `${phone} was sent ${entries.length} times`);
  }
}

/** Two batches held an hour on `gw` through its API; answers their numbers. */
async function scheduleOn(gw: Gateway, key: string): Promise<string[]> {
  const node = { url: gw.url, key, adminKey: gw.adminKey };
  const templateId = await approvedTemplate(node);
  const sendAt = Math.floor(Date.now() / 1000) + 3600;
  const phones: string[] = [];
  for (const b of [73, 74]) {
    const body = batch(templateId, b, PER_BATCH);
    const answer = await call(node, { ...body, SendAt: sendAt });
    assert.equal(answer.SuccessCount, PER_BATCH);
    phones.push(...body.TaskContent.flatMap((t) => t.Target.map((x) => x.Phone)));
  }
  return phones;
}

const finalCount = async (gw: Gateway) => (await gw.store.countByState()).final ?? 0;

describe('held messages survive SIGKILL and a restart, and go when due', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wirebird-held-'));
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('SIGKILL with 1,000 held: after a restart each is sent once when due, or expires', async () => {
    const child = await spawnGateway(dataDir, await freePort(), { templateReview: 'manual' });
    const templateId = await approvedTemplate(child);
    const sendAt = Math.floor(Date.now() / 1000) + 3600;
    const held = await call(child, { ...batch(templateId, 71, PER_BATCH), SendAt: sendAt });
    const expiring = await call(child, {
      ...batch(templateId, 72, PER_BATCH),
      SendAt: sendAt,
      ValidityPeriod: 60,
    });
    assert.deepEqual([held.SuccessCount, expiring.SuccessCount], [PER_BATCH, PER_BATCH]);
    await kill(child.child, 'SIGKILL');

    const time = new ManualTime(Date.now());
    const gw = await inProcess({ dataDir }, time);
    try {
      assert.equal((await gw.store.queueStats(time.now())).held, 2 * PER_BATCH, 'all still held');
      await time.jump(HOUR_MS - 60_000);
      assert.equal(await finalCount(gw), 0, 'none before SendAt');
      await time.jump(2 * 60_000 + 60_000);
      await until(time, async () => (await finalCount(gw)) === 2 * PER_BATCH, 'all final');
      const sent = await gw.store.sessionReceipts(1, held.SessionNo as string);
      assert.ok(sent.every((r) => r.ReceiptResult === 'Success'));
      await sentOnce(
        gw,
        sent.map((r) => r.Phone),
      );
      const dropped = await gw.store.sessionReceipts(1, expiring.SessionNo as string);
      assert.ok(dropped.every((r) => r.ReceiptCode === 'EXPIRED' && r.CostCount === 0));
    } finally {
      await gw.stop();
    }
  });
});

const url = process.env.WIREBIRD_TEST_DATABASE_URL;

describe(
  'two nodes on one PostgreSQL release one due set',
  { skip: !url && 'WIREBIRD_TEST_DATABASE_URL is not set' },
  () => {
    it('each held message is claimed by one node and sent once', async () => {
      const scratch = await createScratchSchema(url as string, 'wb_held');
      const time = new ManualTime(Date.now());
      const dirs = [0, 1].map((i) => mkdtempSync(join(tmpdir(), `wirebird-held-${i}-`)));
      const keys = { apiKeys: [{ accountId: 1, key: 'held-two-nodes-key-0123456789' }] };
      const where = (dataDir: string) => ({ dataDir, database: { url: scratch.url }, ...keys });
      const a = await inProcess(where(dirs[0] ?? ''), time);
      const b = await inProcess(where(dirs[1] ?? ''), time);
      try {
        const phones = await scheduleOn(a, keys.apiKeys[0]?.key ?? '');
        await time.jump(HOUR_MS);
        await until(time, async () => (await finalCount(a)) === phones.length, 'all final');
        await sentOnce(b, phones);
      } finally {
        await a.stop();
        await b.stop();
        for (const d of dirs) rmSync(d, { recursive: true, force: true });
        await scratch.drop();
      }
    });
  },
);
