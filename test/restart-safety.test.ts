import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  approvedTemplate,
  batch,
  call,
  count,
  finalCount,
  receipts,
  type Receipts,
} from './helpers/process-api.js';
import { freePort, kill, spawnGateway, type GatewayProcess } from './helpers/process-gateway.js';

const BATCHES = 8;
const PER_BATCH = 1000;
const CONFIG = {
  simDelayMs: 20,
  templateReview: 'manual',
  // A slow route (8 s for the whole send, however loaded the machine) and a short lease: the
  // kill lands mid-dispatch and reclaiming is quick.
  dispatch: { routeTps: 1000, leaseMs: 1000, batchSize: 200, window: 200, pollMs: 20 },
};

describe('restart safety (kill -9 mid-send)', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wirebird-crash-'));
  let gw: GatewayProcess | undefined;
  after(async () => {
    if (gw) await kill(gw.child, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('brings every accepted message to exactly one final receipt after SIGKILL and a restart', async () => {
    const port = await freePort();
    gw = await spawnGateway(dataDir, port, CONFIG);
    const templateId = await approvedTemplate(gw);
    const sessions: string[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const answer = await call(gw, batch(templateId, b, PER_BATCH));
      assert.equal(answer.RetCode, 0);
      assert.equal(answer.SuccessCount, PER_BATCH);
      sessions.push(answer.SessionNo as string);
    }
    const total = BATCHES * PER_BATCH;
    // Kill once dispatch is under way and far from done.
    for (let i = 0; i < 500 && (await finalCount(gw, sessions)) < 500; i++)
      await new Promise((r) => setTimeout(r, 20));
    const before = await finalCount(gw, sessions);
    assert.ok(before > 0 && before < total, `killed mid-dispatch (${before} of ${total} final)`);
    await kill(gw.child, 'SIGKILL');

    gw = await spawnGateway(dataDir, port, CONFIG);
    for (let i = 0; i < 1500 && (await finalCount(gw, sessions)) < total; i++)
      await new Promise((r) => setTimeout(r, 50));
    const final: Receipts = await receipts(gw, sessions);
    assert.equal(count(final), total, 'every accepted message has a final receipt');
    for (const session of sessions) {
      const set = final.get(session) ?? [];
      const phones = new Set(set.map((r) => r.Phone));
      assert.equal(set.length, PER_BATCH, `session ${session}: one receipt per message`);
      assert.equal(phones.size, PER_BATCH, `session ${session}: no phone twice`);
      assert.ok(set.every((r) => r.ReceiptResult === 'Success'));
    }
  });
});
