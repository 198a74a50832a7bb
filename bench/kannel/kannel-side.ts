import { writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { freePort } from '../gateway.js';
import { spawnTracked, stop, type Tracked } from './children.js';
import type { Contender, ReceiptSpan, RunSetup } from './contender.js';
import { startDlrCounter, type DlrCounter } from './dlr-counter.js';
import type { KannelBins } from './install.js';
import { kannelConf, type KannelPorts } from './kannel-conf.js';
import { runSendsms, sendsmsRequests } from './kannel-load.js';

async function answers(port: number): Promise<boolean> {
  try {
    const res = await request(`http://127.0.0.1:${port}/cgi-bin/sendsms`);
    await res.body.dump();
    return true;
  } catch {
    return false;
  }
}

/** Whether something accepts TCP connections on the loopback port. */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** smsbox gives up at once when bearerbox is not listening for it yet: wait until it is. */
async function bearerboxListens(port: number, box: Tracked, dir: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline && box.child.exitCode === null) {
    if (await listening(port)) return;
    await sleep(100);
  }
  throw new Error(`bearerbox did not listen for smsbox within 30 s (logs in ${dir})`);
}

/** Bound: bearerbox has its SMPP bind up (the simulator counts it) and smsbox answers HTTP. */
async function ready(r: RunSetup, ports: KannelPorts, boxes: Tracked[]): Promise<void> {
  const deadline = Date.now() + 30_000;
  const bound = await r.sim.waitFor((s) => s.binds >= 1, deadline);
  while (Date.now() < deadline && boxes.every((b) => b.child.exitCode === null)) {
    if (bound && bound.binds >= 1 && (await answers(ports.sendsms))) return;
    await sleep(200);
  }
  throw new Error(`Kannel did not come up within 30 s (logs in ${r.dir})`);
}

/**
 * The DLRs Kannel has handed to the application: dlr-url hits, once the SMSC has every receipt
 * acknowledged and the hits have stopped coming for a second (a long message may report per part).
 */
async function dlrReceipts(r: RunSetup, dlr: DlrCounter, deadline: number): Promise<ReceiptSpan> {
  const parts = r.phones.length * r.kind.parts;
  await r.sim.waitFor((s) => s.receiptsAcked >= parts, deadline);
  let seen = -1;
  while (Date.now() < deadline && (dlr.hits < r.phones.length || dlr.hits !== seen)) {
    seen = dlr.hits;
    await sleep(1000);
  }
  return { count: dlr.hits, firstAt: dlr.firstAt, lastAt: dlr.lastAt, source: 'dlr-url hits' };
}

/** bearerbox and smsbox, started by hand from the run's temp folder, on free loopback ports. */
export async function startKannel(
  r: RunSetup,
  bins: KannelBins,
  perRequest: number,
): Promise<Contender> {
  const ports: KannelPorts = {
    admin: await freePort(),
    smsbox: await freePort(),
    sendsms: await freePort(),
    smsc: r.sim.port,
  };
  const conf = join(r.dir, 'kannel.conf');
  writeFileSync(conf, kannelConf(r.dir, ports, r.window));
  const dlr = await startDlrCounter();
  const boxes: Tracked[] = [];
  const stopAll = async () => {
    for (const b of [...boxes].reverse()) await stop(b);
    await dlr.close();
  };
  try {
    const bearerbox = spawnTracked(
      'bearerbox',
      bins.bearerbox,
      ['-v', '4', conf],
      join(r.dir, 'bearerbox.out'),
    );
    boxes.push(bearerbox);
    await bearerboxListens(ports.smsbox, bearerbox, r.dir);
    boxes.push(spawnTracked('smsbox', bins.smsbox, ['-v', '4', conf], join(r.dir, 'smsbox.out')));
    await ready(r, ports, boxes);
  } catch (err) {
    await stopAll();
    throw err;
  }
  const requests = sendsmsRequests(r.kind, r.phones, perRequest, dlr.port);
  return {
    pids: boxes.map((b) => b.pid),
    send: () => runSendsms(ports.sendsms, requests, r.o.clients, r.o.timeLimitS * 1000),
    receipts: (deadline) => dlrReceipts(r, dlr, deadline),
    async stop() {
      await stopAll();
      return undefined;
    },
  };
}
