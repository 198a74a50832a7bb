import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { kannelMissing, startKannel, type Kannel } from '../helpers/kannel.js';
import { ManualTime } from '../helpers/manual-time.js';
import { cn, inbox, registerSenderId } from '../helpers/sending.js';

const missing = kannelMissing();
if (missing && process.env.WIREBIRD_REQUIRE_KANNEL === '1') {
  throw new Error(`WIREBIRD_REQUIRE_KANNEL=1 but ${missing}`);
}
if (missing) console.log(`NOTICE: the Kannel interop test is skipped: ${missing}`);

/** Every GET Kannel makes to us (its dlr-url and its sms-service), as query parameters. */
class Callbacks {
  readonly got: { path: string; query: URLSearchParams }[] = [];
  private readonly server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    this.got.push({ path: url.pathname, query: url.searchParams });
    res.writeHead(200).end('');
  });
  url = '';
  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }
  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** Kannel bound to `gw`'s SMPP server as `kannel`, its sms-service posting to `callbacks`. */
async function kannelOn(gw: TestGateway, dir: string, callbacks: Callbacks): Promise<Kannel> {
  await registerSenderId(gw, 'WIREBIRD');
  const [host, port] = (gw.smppAddress as string).split(':');
  return startKannel({
    dir,
    smpp: { host: host as string, port: Number(port), systemId: 'kannel', password: 'interop' },
    moUrl: `${callbacks.url}/mo`,
    sender: 'WIREBIRD',
  });
}

/**
 * Kannel, nobody's code here, as an ESME of Wirebird: its bearerbox binds as a transceiver, a
 * message sent through its sendsms interface is stored by Wirebird, the receipt comes back to
 * its dlr-url, and a reply to the account's number reaches its sms-service.
 */
describe('interop: Kannel binds to the SMPP server and round-trips', { skip: missing }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'wirebird-kannel-'));
  let gw: TestGateway;
  let kannel: Kannel;
  let callbacks: Callbacks;

  before(async () => {
    gw = await startTestGateway({
      simDelayMs: 50,
      smppServer: {
        listen: '127.0.0.1:0',
        esmes: [{ accountId: 1, systemId: 'kannel', password: 'interop' }],
      },
    });
    callbacks = await new Callbacks().start();
    kannel = await kannelOn(gw, dir, callbacks);
  });
  after(async () => {
    await kannel.stop();
    await callbacks.close();
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sendsms → stored by Wirebird → delivered → DLR back to Kannel; MO → sms-service', async () => {
    const to = cn(5401);
    const dlrUrl = `${callbacks.url}/dlr?type=%d&to=%p&answer=%A`;
    const query = new URLSearchParams({
      username: 'interop',
      password: 'interop',
      to,
      text: 'Hello from Kannel',
      'dlr-mask': '1',
      'dlr-url': dlrUrl,
    });
    // Kannel binds to Wirebird and opens sendsms in its own time: on a loaded machine, seconds.
    const sent = await eventually(
      async () => {
        const res = await fetch(`${kannel.sendsms}?${query.toString()}`).catch(() => undefined);
        return res && res.status === 202 ? res : undefined;
      },
      "Kannel's sendsms accepting",
      40_000,
    ).catch((err: unknown) => {
      throw new Error(`${String(err)}\n${kannel.logTails()}`);
    });
    assert.equal(sent.status, 202);
    const stored = await eventually(
      async () => (await inbox(gw, to))[0],
      'the message in Wirebird',
    );
    assert.equal(stored.body, 'Hello from Kannel');
    const dlr = await eventually(
      async () => callbacks.got.find((c) => c.path === '/dlr'),
      "the delivery report at Kannel's dlr-url",
      20_000,
    );
    assert.equal(dlr.query.get('type'), '1', 'delivered (dlr type 1)');
    assert.match(dlr.query.get('answer') ?? '', /stat:DELIVRD/);

    const reply = { From: cn(5402), To: '10690001', Text: 'Ping from a phone' };
    assert.equal((await gw.admin('POST', '/admin/simulator/inbound', reply)).status, 201);
    const mo = await eventually(
      async () => callbacks.got.find((c) => c.path === '/mo'),
      "the reply at Kannel's sms-service",
      20_000,
    );
    assert.equal(mo.query.get('text'), 'Ping from a phone');
    assert.match(mo.query.get('from') ?? '', /8613800005402$/);
    assert.equal(mo.query.get('to'), '10690001');
  });
});

/**
 * Kannel's `deferred` (minutes) reaches Wirebird as submit_sm's schedule_delivery_time: held, not
 * sent, until the gateway's clock (the test's to move) passes it; then sent, and the receipt goes
 * back to Kannel's dlr-url.
 */
describe('interop: a Kannel deferred message is held until due', { skip: missing }, () => {
  const dir = mkdtempSync(join(tmpdir(), 'wirebird-kannel-deferred-'));
  // Kannel dates schedule_delivery_time by the wall clock: the gateway's starts level with it.
  let time: ManualTime;
  let gw: TestGateway;
  let kannel: Kannel;
  let callbacks: Callbacks;

  before(async () => {
    const smppServer = {
      listen: '127.0.0.1:0',
      esmes: [{ accountId: 1, systemId: 'kannel', password: 'interop' }],
    };
    const config = { simDelayMs: 0, acceptThreads: 0, smppServer };
    time = new ManualTime(Date.now());
    gw = await startTestGateway(config, undefined, { clock: time, scheduler: time });
    callbacks = await new Callbacks().start();
    kannel = await kannelOn(gw, dir, callbacks);
  });
  after(async () => {
    await kannel.stop();
    await callbacks.close();
    await gw.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sendsms with deferred=2 → held about two minutes → sent → DLR back to Kannel', async () => {
    const to = cn(5403);
    const query = new URLSearchParams({
      username: 'interop',
      password: 'interop',
      to,
      text: 'Later, from Kannel',
      deferred: '2',
      'dlr-mask': '1',
      'dlr-url': `${callbacks.url}/dlr?type=%d&answer=%A`,
    });
    // Kannel's start took real time the gateway's clock did not: level them before it dates.
    await time.jump(Math.max(0, Date.now() - time.now()));
    await eventually(
      async () => {
        const res = await fetch(`${kannel.sendsms}?${query.toString()}`).catch(() => undefined);
        return res && res.status === 202 ? res : undefined;
      },
      "Kannel's sendsms accepting",
      20_000,
    );
    const held = await eventually(async () => {
      const list = await gw.store.heldMessages({ now: time.now(), limit: 5 });
      return list.find((m) => m.e164 === to);
    }, 'the deferred message held by Wirebird');
    const minutes = (held.dueAt - time.now()) / 60_000;
    assert.ok(minutes > 1.5 && minutes <= 2.5, `due in ${minutes.toFixed(2)} min, not 2`);
    assert.deepEqual(await inbox(gw, to), [], 'not sent before it is due');
    await time.jump(3 * 60_000);
    // Each look moves the gateway's clock a little: its dispatch and receipt pushes run on it.
    const dlr = await eventually(
      async () => {
        await time.advance(100);
        return callbacks.got.find((c) => c.path === '/dlr');
      },
      "the delivery report at Kannel's dlr-url",
      20_000,
    );
    assert.equal(dlr.query.get('type'), '1', 'delivered (dlr type 1)');
    assert.equal((await inbox(gw, to))[0]?.body, 'Later, from Kannel');
  });
});
