import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { PDU } from 'smpp';
import {
  createScratchSchema,
  type ScratchSchema,
} from '../../src/store/postgres/scratch-schema.js';
import { Esme } from '../helpers/esme.js';
import { eventually } from '../helpers/eventually.js';
import { freePort, kill, spawnGateway, type GatewayProcess } from '../helpers/process-gateway.js';
import { cn } from '../helpers/sending.js';

const url = process.env.WIREBIRD_TEST_DATABASE_URL;

/**
 * Two nodes on one PostgreSQL, each with its SMPP server: an ESME submits on one node and takes
 * its receipts on the other; a reply reaches the account's bind on whichever node it is.
 */
describe(
  'SMPP server on two nodes sharing PostgreSQL',
  { skip: !url && 'WIREBIRD_TEST_DATABASE_URL is not set' },
  () => {
    let scratch: ScratchSchema;
    const dirs: string[] = [];
    const nodes: GatewayProcess[] = [];
    const addresses: string[] = [];
    before(async () => {
      scratch = await createScratchSchema(url as string, 'wb_smpp_nodes');
      for (let i = 0; i < 2; i++) {
        const dir = mkdtempSync(join(tmpdir(), `wirebird-smpp-node-${i}-`));
        dirs.push(dir);
        const smppPort = await freePort();
        addresses.push(`127.0.0.1:${smppPort}`);
        const config = {
          simDelayMs: 20,
          apiKeys: [{ accountId: 1, key: 'smpp-nodes-test-key-0123456789' }],
          adminKey: 'smpp-nodes-admin-key-0123456789',
          smppServer: {
            listen: `127.0.0.1:${smppPort}`,
            esmes: [{ accountId: 1, systemId: 'spread', password: 'pw' }],
          },
        };
        nodes.push(
          await spawnGateway(dir, await freePort(), config, { DATABASE_URL: scratch.url }),
        );
      }
    });
    after(async () => {
      for (const n of nodes) await kill(n.child, 'SIGKILL');
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      await scratch.drop();
    });

    it('a receipt reaches the bind on the other node', async () => {
      const tx = await Esme.connect(addresses[0] as string);
      assert.equal((await tx.bind('spread', 'pw', 'transmitter')).command_status, 0);
      const rx = await Esme.connect(addresses[1] as string);
      const got: PDU[] = [];
      rx.session.on('deliver_sm', (pdu: PDU) => {
        got.push(pdu);
        rx.session.send(pdu.response());
      });
      assert.equal((await rx.bind('spread', 'pw', 'receiver')).command_status, 0);
      const ids: string[] = [];
      for (let n = 0; n < 20; n++) {
        const resp = await tx.submit({
          destination_addr: cn(5800 + n).slice(1),
          short_message: 'across',
          registered_delivery: 1,
        });
        ids.push(String(resp.message_id));
      }
      await eventually(
        async () =>
          ids.every((id) => got.some((p) => p.receipted_message_id === id)) ? true : undefined,
        'every receipt at the bind on node 2',
        20_000,
      );
      const twice = got.length - new Set(got.map((p) => p.receipted_message_id)).size;
      assert.equal(twice, 0, 'each receipt once in the steady state');
      tx.close();
      rx.close();
    });
  },
);
