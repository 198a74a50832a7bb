import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from '../helpers/eventually.js';
import { approvedTemplate, batch, call, finalCount } from '../helpers/process-api.js';
import { freePort, kill, spawnGateway } from '../helpers/process-gateway.js';
import { CRASH_CONFIG, crashRig } from '../helpers/smsc-crash.js';

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
  const rig = crashRig('wirebird-held-crash-');

  it('resends after the restart only the submits in flight at the kill', async () => {
    const { dataDir, sim } = rig;
    const env = await rig.smsc({ window: WINDOW, tps: 1000 });
    const config = CRASH_CONFIG;
    const port = await freePort();
    const gw = await spawnGateway(dataDir, port, config, env);
    rig.gw = gw;
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
    await eventually(async () => sim.stats.accepted >= 1000 || undefined, '1000 sent', 60_000);
    await kill(gw.child, 'SIGKILL');
    const sentAtKill = sim.stats.accepted;
    assert.ok(sentAtKill < total, `killed mid-dispatch (${sentAtKill} sent)`);

    const restarted = await spawnGateway(dataDir, port, config, env);
    rig.gw = restarted;
    const done = async () => (await finalCount(restarted, sessions)) === total || undefined;
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
