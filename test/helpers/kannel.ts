/**
 * Kannel (Debian's `kannel` package: bearerbox and smsbox) as an ESME of Wirebird's SMPP server:
 * one transceiver bind, a sendsms user, and an sms-service that posts every MO to a URL.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { freePort, kill } from './process-gateway.js';
import { group, q } from '../../bench/kannel/kannel-conf.js';

const BIN = '/usr/sbin';

/** Why the Kannel interop cannot run here, or undefined when it can. */
export function kannelMissing(): string | undefined {
  if (existsSync(join(BIN, 'bearerbox')) && existsSync(join(BIN, 'smsbox'))) return undefined;
  return 'Kannel is not installed (apt-get install -y kannel; .ci/run installs it)';
}

export interface KannelOptions {
  dir: string;
  smpp: { host: string; port: number; systemId: string; password: string };
  /** Where the sms-service posts each MO (GET with from, to and text). */
  moUrl: string;
  sender: string;
}

export interface Kannel {
  sendsms: string;
  stop(): Promise<void>;
  /** The last lines of bearerbox's and smsbox's logs: why a wait on Kannel gave up. */
  logTails(): string;
}

function tail(file: string, lines = 15): string {
  if (!existsSync(file)) return `${file}: not written`;
  return `${file}:\n${readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n')}`;
}

function conf(o: KannelOptions, ports: { admin: number; box: number; sendsms: number }): string {
  return [
    group('core', {
      'admin-port': ports.admin,
      'admin-password': 'interop',
      'admin-allow-ip': q('127.0.0.1'),
      'smsbox-port': ports.box,
      'box-allow-ip': q('127.0.0.1'),
      'log-file': q(`${o.dir}/bearerbox.log`),
      'log-level': 0,
      'dlr-storage': 'internal',
    }),
    group('smsc', {
      smsc: 'smpp',
      'smsc-id': 'wirebird',
      host: o.smpp.host,
      port: o.smpp.port,
      'transceiver-mode': 'true',
      'smsc-username': o.smpp.systemId,
      'smsc-password': o.smpp.password,
      'system-type': q(''),
      'interface-version': 34,
      'enquire-link-interval': 30,
      'reconnect-delay': 1,
    }),
    group('smsbox', {
      'bearerbox-host': '127.0.0.1',
      'sendsms-port': ports.sendsms,
      'sendsms-interface': q('127.0.0.1'),
      'log-file': q(`${o.dir}/smsbox.log`),
      'log-level': 0,
    }),
    group('sendsms-user', {
      username: 'interop',
      password: 'interop',
      'default-sender': o.sender,
    }),
    group('sms-service', {
      keyword: 'default',
      'get-url': q(`${o.moUrl}?from=%p&to=%P&text=%a`),
      'max-messages': 0,
      'catch-all': 'true',
    }),
  ].join('\n');
}

/** Resolves once something accepts connections on the loopback port; fails after `limitMs`. */
async function portOpen(port: number, limitMs: number): Promise<void> {
  const end = Date.now() + limitMs;
  const tryOnce = () =>
    new Promise<boolean>((resolve) => {
      const socket = connect({ host: '127.0.0.1', port }, () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
  while (!(await tryOnce())) {
    if (Date.now() > end) throw new Error(`bearerbox did not open port ${port} in ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Whether bearerbox lists an smsbox among its box connections (its admin status page). */
async function smsboxConnected(adminPort: number): Promise<boolean> {
  const url = `http://127.0.0.1:${adminPort}/status.txt?password=interop`;
  const text = await fetch(url).then(
    (r) => r.text(),
    () => '',
  );
  return /Box connections:[\s\S]*smsbox/.test(text);
}

/**
 * Starts smsbox until bearerbox lists it as connected. Debian's smsbox (1.4.5) can panic at start
 * on a loaded machine, its heartbeat writing to bearerbox before its connection is made
 * ("PANIC: … conn_write_withlen … write_to_bearerbox" in smsbox.log): a box that exits first is
 * started again (one still unconnected after 15 s is killed first), three times at most.
 */
async function startSmsbox(start: () => ChildProcess, adminPort: number): Promise<void> {
  for (let tries = 1; tries <= 3; tries++) {
    const box = start();
    const end = Date.now() + 15_000;
    while (box.exitCode === null && box.signalCode === null && Date.now() < end) {
      if (await smsboxConnected(adminPort)) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    // One that hangs unconnected would hold the sendsms port from the next.
    await kill(box, 'SIGKILL');
  }
  throw new Error('smsbox did not connect to bearerbox (three starts)');
}

/** Starts bearerbox then smsbox; answers the sendsms base URL. */
export async function startKannel(o: KannelOptions): Promise<Kannel> {
  const ports = { admin: await freePort(), box: await freePort(), sendsms: await freePort() };
  const file = join(o.dir, 'kannel.conf');
  writeFileSync(file, conf(o, ports));
  const boxes: ChildProcess[] = [];
  const start = (bin: string) => {
    const child = spawn(join(BIN, bin), [file], { stdio: 'ignore' });
    boxes.push(child);
    return child;
  };
  start('bearerbox');
  // smsbox connects to bearerbox's box port once and gives up if it is not open yet: wait for it
  // (a fixed pause was too short on a loaded machine).
  await portOpen(ports.box, 15_000);
  await startSmsbox(() => start('smsbox'), ports.admin);
  return {
    sendsms: `http://127.0.0.1:${ports.sendsms}/cgi-bin/sendsms`,
    logTails: () => ['bearerbox', 'smsbox'].map((b) => tail(join(o.dir, `${b}.log`))).join('\n'),
    async stop() {
      // Our own two processes, by handle: nothing of theirs needs a clean stop.
      for (const b of boxes.reverse()) await kill(b, 'SIGKILL');
    },
  };
}
