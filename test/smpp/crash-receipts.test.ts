import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import smpp, { type PDU } from 'smpp';
import { SmscSim } from '../../src/smsc-sim/smsc-sim.js';
import {
  approvedTemplate,
  batch,
  call,
  count,
  finalCount,
  receipts,
  type Receipts,
} from '../helpers/process-api.js';
import { freePort, kill, spawnGateway } from '../helpers/process-gateway.js';
import { CRASH_CONFIG, crashRig } from '../helpers/smsc-crash.js';

const BATCHES = 20;
const PER_BATCH = 1000;

describe('SMPP: SIGKILL mid-dispatch, then every receipt arrives', () => {
  const rig = crashRig('wirebird-smpp-crash-');

  it(`${BATCHES * PER_BATCH} messages: killed while submits and receipts are in flight, restarted, none left waiting`, async () => {
    const { dataDir, sim } = rig;
    const env = await rig.smsc({ window: 100, tps: 20000 });
    const config = CRASH_CONFIG;
    const port = await freePort();
    let gw = await spawnGateway(dataDir, port, config, env);
    rig.gw = gw;
    const templateId = await approvedTemplate(gw);
    const sessions: string[] = [];
    for (let b = 0; b < BATCHES; b++) {
      const answer = await call(gw, batch(templateId, b, PER_BATCH));
      assert.equal(answer.RetCode, 0, String(answer.Message));
      sessions.push(answer.SessionNo as string);
    }
    const total = BATCHES * PER_BATCH;
    for (let i = 0; i < 1000 && sim.stats.receiptsAcked < 2000; i++) {
      await new Promise((r) => setTimeout(r, 10));
    }
    await kill(gw.child, 'SIGKILL');
    const sentBefore = sim.stats.receiptsSent;
    const ackedBefore = sim.stats.receiptsAcked;
    assert.ok(
      ackedBefore > 0 && ackedBefore < total,
      `killed mid-dispatch (${ackedBefore} receipts acknowledged)`,
    );

    gw = await spawnGateway(dataDir, port, config, env);
    rig.gw = gw;
    for (let i = 0; i < 1200 && (await finalCount(gw, sessions)) < total; i++)
      await new Promise((r) => setTimeout(r, 50));
    const final: Receipts = await receipts(gw, sessions);
    assert.equal(
      count(final),
      total,
      'every message has its final receipt; none waits for the timeout',
    );
    for (const set of final.values()) assert.ok(set.every((r) => r.ReceiptResult === 'Success'));
    const duplicates = sim.stats.accepted - total;
    // Reported, not hidden: resubmissions of submits in flight at the kill, and receipts sent again.
    console.log(
      `crash: ${sentBefore - ackedBefore} receipts unacknowledged at the kill, ` +
        `${sim.stats.receiptsRedelivered} redelivered; ${duplicates} submits resubmitted`,
    );
    assert.ok(duplicates <= 3 * 100, `resubmissions bounded by what was in flight (${duplicates})`);
  });
});

describe('smsc-sim redelivers what a bind did not acknowledge', () => {
  it('a deliver_sm left unanswered by a bind that drops is sent again to the next bind', async () => {
    const sim = new SmscSim({ port: 0, receiptDelayMs: 0 });
    const port = await sim.start();
    const bind = async (answer: boolean) => {
      const session = smpp.connect({ url: `smpp://127.0.0.1:${port}` });
      const got: string[] = [];
      session.on('deliver_sm', (pdu: PDU) => {
        got.push(String(pdu.receipted_message_id));
        if (answer) session.send(pdu.response());
      });
      session.on('error', () => undefined);
      await new Promise<void>((done) =>
        session.send(new smpp.PDU('bind_transceiver', { system_id: 'esme', password: 'pw' }), () =>
          done(),
        ),
      );
      return { session, got };
    };
    try {
      const first = await bind(false);
      const id = await new Promise<string>((done) =>
        first.session.send(
          new smpp.PDU('submit_sm', { destination_addr: '8613800000013', short_message: 'hi' }),
          (r: PDU) => done(String(r.message_id)),
        ),
      );
      for (let i = 0; i < 100 && first.got.length === 0; i++)
        await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(first.got, [id], 'delivered, not acknowledged');
      first.session.destroy();
      const second = await bind(true);
      for (let i = 0; i < 100 && second.got.length === 0; i++)
        await new Promise((r) => setTimeout(r, 10));
      assert.deepEqual(second.got, [id], 'sent again on the next bind');
      assert.equal(sim.stats.receiptsRedelivered, 1);
      second.session.destroy();
    } finally {
      await sim.stop();
    }
  });
});
