import Database from 'better-sqlite3';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { Esme, status } from './helpers/esme.js';
import { approvedTemplate, batch } from './helpers/process-api.js';
import { freePort, kill, spawnGateway, type GatewayProcess } from './helpers/process-gateway.js';
import { cn } from './helpers/sending.js';

/**
 * Nothing is answered before its commit: while another connection holds the database's write
 * lock, the gateway cannot commit an acceptance, and the HTTP API and the SMPP server answer with
 * an error once SQLite gives up waiting (busy_timeout), never with an accepted message that was
 * not stored. The gateway runs in its own process, so the test's lock is another connection's.
 */
describe('an answer never leaves before its commit', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wirebird-commit-'));
  let gw: GatewayProcess | undefined;
  after(async () => {
    if (gw) await kill(gw.child, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers an error, and stores nothing, when the commit cannot be made', async () => {
    const [port, smppPort] = [await freePort(), await freePort()];
    const address = `127.0.0.1:${smppPort}`;
    const esmes = [{ accountId: 1, systemId: 'commit', password: 'pw' }];
    // SQLite gives up on the lock after 300 ms instead of 5 s.
    const config = { sqliteBusyTimeoutMs: 300, smppServer: { listen: address, esmes } };
    gw = await spawnGateway(dataDir, port, config);
    const esme = await Esme.connect(address);
    assert.equal((await esme.bind('commit', 'pw')).command_status, 0);
    const body = { AccountId: 1, ...batch(await approvedTemplate(gw), 1, 1) };
    const holder = new Database(join(dataDir, 'wirebird.db'));
    holder.exec('BEGIN IMMEDIATE');
    try {
      const [http, smppResp] = await Promise.all([
        fetch(`${gw.url}/api`, {
          method: 'POST',
          headers: { authorization: `Bearer ${gw.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(async (r) => ({ status: r.status, json: (await r.json()) as { RetCode: number } })),
        esme.submit({ destination_addr: cn(7002).slice(1), short_message: 'x' }),
      ]);
      // The gateway's own fault, which the client retries (docs/api.md, RetCode 18004).
      assert.deepEqual([http.status, http.json.RetCode], [500, 18004], JSON.stringify(http.json));
      assert.equal(smppResp.command_status, status('ESME_RSYSERR'));
    } finally {
      holder.exec('ROLLBACK');
    }
    // The template's review wrote no message; the two refused sends wrote none either.
    const stored = holder.prepare('SELECT count(*) FROM messages').pluck().get();
    holder.close();
    esme.close();
    assert.equal(stored, 0);
  });
});
