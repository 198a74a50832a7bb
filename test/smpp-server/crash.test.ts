import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { PDU } from 'smpp';
import { Esme } from '../helpers/esme.js';
import { eventually } from '../helpers/eventually.js';
import { freePort, kill, spawnGateway, type GatewayProcess } from '../helpers/process-gateway.js';
import { cn } from '../helpers/sending.js';

/** The kill lands once this many are acknowledged, with more on their way. */
const IN_FLIGHT = 20_000;
const SUBMITS = IN_FLIGHT + 4_000;
const WINDOW = 100;

/**
 * The n-th handset, ending in 4: never one of the simulator's test numbers (0001 – 0003), one
 * of which is never reported and would wait for its receipt until the receipt timeout.
 */
const handset = (n: number) => cn(6000 + 10 * n + 4).slice(1);

/** A transceiver that answers every deliver_sm and keeps the receipted ids it saw. */
async function receiver(address: string, seen: string[]): Promise<Esme> {
  const e = await Esme.connect(address);
  e.session.on('deliver_sm', (pdu: PDU) => {
    seen.push(String(pdu.receipted_message_id));
    e.session.send(pdu.response());
  });
  assert.equal((await e.bind('crash', 'pw')).command_status, 0);
  return e;
}

/** Submits until `stop` says so, WINDOW at a time; answers the message ids that got a resp. */
async function submitUntil(e: Esme, acked: string[], stop: () => boolean): Promise<void> {
  let next = 0;
  const one = async (): Promise<void> => {
    while (next < SUBMITS && !stop()) {
      const n = next++;
      // The kill closes the connection: a submit without its resp is not counted.
      const resp = await e
        .submit({
          destination_addr: handset(n),
          short_message: 'x',
          registered_delivery: 1,
        })
        .catch(() => undefined);
      if (!resp) return;
      if (resp.command_status === 0) acked.push(String(resp.message_id));
    }
  };
  await Promise.all(Array.from({ length: WINDOW }, one));
}

/**
 * SIGKILL while an ESME submits with registered_delivery, 20,000 acknowledged and none of them
 * reported yet: every submit that got its submit_sm_resp is sent and its receipt reaches the
 * ESME once it binds again.
 */
describe('SMPP server: a crash loses no acknowledged submit and no receipt', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wirebird-smpp-crash-'));
  let gw: GatewayProcess | undefined;
  after(async () => {
    if (gw) await kill(gw.child, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('SIGKILL mid-submit, restart: a receipt for every acknowledged submit', async () => {
    const [port, smppPort] = [await freePort(), await freePort()];
    const address = `127.0.0.1:${smppPort}`;
    const config = {
      // Reported long after each submit: every acknowledged one is in flight when the kill lands.
      simDelayMs: 15_000,
      dispatch: { leaseMs: 2000 },
      smppServer: {
        listen: address,
        responseTimeoutMs: 1000,
        // As fast as it can take them: the load, not the bind's limits, is the subject.
        esmes: [
          { accountId: 1, systemId: 'crash', password: 'pw', maxTps: 100_000, window: WINDOW },
        ],
      },
    };
    gw = await spawnGateway(dataDir, port, config);
    const acked: string[] = [];
    const seen: string[] = [];
    const before = await receiver(address, seen);
    const sending = submitUntil(before, acked, () => false);
    await eventually(
      async () => (acked.length >= IN_FLIGHT ? true : undefined),
      `${IN_FLIGHT} acknowledged`,
      60_000,
    );
    await kill(gw.child, 'SIGKILL');
    await sending;
    const inFlight = acked.length - new Set(seen).size;
    gw = await spawnGateway(dataDir, port, config);
    const afterRestart = await receiver(address, seen);
    const missing = await eventually(
      async () => {
        const got = new Set(seen);
        const left = acked.filter((id) => !got.has(id));
        return left.length === 0 ? left : undefined;
      },
      'a receipt for every acknowledged submit',
      60_000,
    );
    assert.deepEqual(missing, []);
    const distinct = new Set(seen);
    const duplicates = seen.length - distinct.size;
    // Stored and committed, their submit_sm_resp cut off by the kill: sent all the same.
    const answered = new Set(acked);
    const unanswered = [...distinct].filter((id) => !answered.has(id)).length;
    console.log(
      `smpp crash: ${acked.length} submits acknowledged before the kill, ${inFlight} of them ` +
        `without their receipt yet; ${seen.length} receipts (${unanswered} for submits whose ` +
        `resp the kill cut off), ${duplicates} delivered twice`,
    );
    afterRestart.close();
  });
});
