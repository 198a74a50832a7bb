import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { PDU } from 'smpp';
import { Esme } from '../helpers/esme.js';
import { eventually } from '../helpers/gateway.js';
import { freePort, kill, spawnGateway, type GatewayProcess } from '../helpers/process-gateway.js';
import { cn } from '../helpers/sending.js';

const SUBMITS = 2000;
const WINDOW = 50;

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
          destination_addr: cn(6000 + n).slice(1),
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
 * SIGKILL while an ESME submits with registered_delivery: every submit that got its
 * submit_sm_resp is delivered and its receipt reaches the ESME after the restart.
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
      simDelayMs: 20,
      dispatch: { leaseMs: 2000 },
      smppServer: {
        listen: address,
        responseTimeoutMs: 1000,
        esmes: [{ accountId: 1, systemId: 'crash', password: 'pw' }],
      },
    };
    gw = await spawnGateway(dataDir, port, config);
    const acked: string[] = [];
    const seen: string[] = [];
    const before = await receiver(address, seen);
    const sending = submitUntil(before, acked, () => false);
    await eventually(async () => (acked.length >= SUBMITS / 2 ? true : undefined), 'half');
    await kill(gw.child, 'SIGKILL');
    await sending;
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
    const duplicates = seen.length - new Set(seen).size;
    console.log(
      `smpp crash: ${acked.length} submits acknowledged before the kill, ${seen.length} receipts, ` +
        `${duplicates} delivered twice (their deliver_sm was in flight or unrecorded at the kill)`,
    );
    afterRestart.close();
  });
});
