import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { SmscSim } from '../../src/smsc-sim/smsc-sim.js';
import { eventually } from '../helpers/eventually.js';
import { approvedTemplate, batch, call, finalCount } from '../helpers/process-api.js';
import { freePort, kill, spawnGateway, type GatewayProcess } from '../helpers/process-gateway.js';

const BATCHES = 3;
const PER_BATCH = 1000;
/** The SMSC's window: submits in flight on its one bind at most. */
const WINDOW = 10;

/**
 * Held messages that fall due, then SIGKILL mid-dispatch (docs/scaling.md, "Duplicates"): each
 * outcome is recorded as the SMSC answers it, so a restart resends only what was in flight at
 * the kill (sent, answer not yet recorded), not every message the dispatcher had claimed.
 */
describe('SMPP: SIGKILL just after 3,000 held messages fell due', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wirebird-held-crash-'));
  let gw: GatewayProcess | undefined;
  let sim: SmscSim | undefined;
  after(async () => {
    if (gw) await kill(gw.child, 'SIGKILL');
    await sim?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resends after the restart only the submits in flight at the kill', async () => {
    sim = new SmscSim({ port: 0, receiptDelayMs: 50 });
    const smscPort = await sim.start();
    // A short lease, so that what the kill left claimed is claimed again within the test.
    const config = { templateReview: 'manual', dispatch: { leaseMs: 1000, pollMs: 20 } };
    const env = {
      WIREBIRD_SMSC: `smpp://wirebird:secret@127.0.0.1:${smscPort}?window=${WINDOW}&tps=1000`,
    };
    const port = await freePort();
    gw = await spawnGateway(dataDir, port, config, env);
    const templateId = await approvedTemplate(gw);
    // Due together, a few seconds on: held first (a SendAt within 5 s would send at once).
    const sendAt = Math.floor(Date.now() / 1000) + 8;
    const sessions: string[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const answer = await call(gw, { ...batch(templateId, 80 + b, PER_BATCH), SendAt: sendAt });
      assert.equal(answer.SuccessCount, PER_BATCH, String(answer.Message));
      sessions.push(answer.SessionNo as string);
    }
    const total = BATCHES * PER_BATCH;
    await eventually(
      async () => (sim?.stats.accepted ?? 0) >= 1000 || undefined,
      '1000 sent',
      60_000,
    );
    await kill(gw.child, 'SIGKILL');
    const sentAtKill = sim.stats.accepted;
    assert.ok(sentAtKill < total, `killed mid-dispatch (${sentAtKill} sent)`);

    gw = await spawnGateway(dataDir, port, config, env);
    const done = async () =>
      (await finalCount(gw as GatewayProcess, sessions)) === total || undefined;
    await eventually(done, `${total} final receipts`, 60_000);
    const duplicates = sim.stats.accepted - total;
    // Reported, not hidden: what the restart sent a second time.
    console.log(
      `held crash: ${sentAtKill} of ${total} sent at the kill; ${duplicates} sent twice ` +
        `(window ${WINDOW})`,
    );
    // In flight on the bind, plus answers not yet committed: those of the turn the recorder
    // gathers and of the turn the writer commits, a window each at most.
    assert.ok(duplicates <= 3 * WINDOW, `duplicates bounded by what was in flight (${duplicates})`);
  });
});
