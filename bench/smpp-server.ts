/**
 * Issue 17's figures: submits an ESME gets accepted over one transceiver bind, window --window,
 * GSM-7 single part, registered_delivery on, against Wirebird's SMPP server (simulator channel
 * upstream, every submit durably stored before its resp) and against a bare `smpp` server that
 * answers every submit_sm at once, in the same run; and the receipts back to the ESME.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import smpp from 'smpp';
import { freePort, freshDataDir } from './gateway.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { CpuWindow } from './proc.js';
import { withBench } from './session.js';
import { fmt, table } from './stats.js';

export interface EsmeRun {
  submits: number;
  submitsPerS: number;
  receipts: number;
  /** First submit → last receipt, when receipts were asked for. */
  receiptsPerS: number | undefined;
}

export interface SmppServerFigures {
  messages: number;
  window: number;
  nagle: boolean;
  bare: EsmeRun;
  wirebird: EsmeRun & { cpuS: number; complete: boolean };
  ratio: number;
}

/** The gateway's config for a bench: its SMPP server on `port`, one ESME `bench`/`bench`. */
export function benchSmppServer(port: number) {
  const esme = { accountId: 1, systemId: 'bench', password: 'bench', maxTps: 100_000, window: 100 };
  return { smppServer: { listen: `127.0.0.1:${port}`, esmes: [esme] } };
}

/**
 * A transceiver bind that answers every deliver_sm, telling `onDeliver` of each first. With
 * Nagle's algorithm on (the smpp package's default, `nagle`), a submit_sm written just after a
 * deliver_sm_resp waits for the gateway's kernel to acknowledge the resp, which it delays up to
 * 40 ms since nothing answers a resp: the stall is the ESME's, so by default the bench's ESME
 * sends at once, as a tuned one does.
 */
export async function bindEsme(
  o: { port: number; systemId: string; password: string; nagle?: boolean },
  onDeliver: () => void = () => undefined,
): Promise<smpp.Session> {
  const session = await new Promise<smpp.Session>((resolve, reject) => {
    const s = smpp.connect({ host: '127.0.0.1', port: o.port }, () => resolve(s));
    s.once('error', reject);
  });
  session.socket.setNoDelay(!o.nagle);
  session.on('deliver_sm', (pdu: smpp.PDU) => {
    onDeliver();
    session.send(pdu.response());
  });
  await new Promise((r) =>
    session.send(
      new smpp.PDU('bind_transceiver', { system_id: o.systemId, password: o.password }),
      r,
    ),
  );
  return session;
}

/** One ESME: binds, submits `n` with `window` outstanding, answers and counts receipts. */
export async function runEsme(
  o: {
    port: number;
    systemId: string;
    password: string;
    n: number;
    window: number;
    nagle: boolean;
  },
  phones: PhoneSequence,
  receiptsLimitMs: number,
): Promise<EsmeRun> {
  let receipts = 0;
  let lastReceipt = 0;
  const session = await bindEsme(o, () => {
    receipts++;
    lastReceipt = performance.now();
  });
  const started = performance.now();
  const numbers = phones.take(o.n).map((p) => p.slice(1));
  let sent = 0;
  let answered = 0;
  await new Promise<void>((resolve) => {
    const one = () => {
      if (sent >= o.n) return;
      const to = numbers[sent++] as string;
      const pdu = new smpp.PDU('submit_sm', {
        destination_addr: to,
        dest_addr_ton: 1,
        dest_addr_npi: 1,
        short_message: 'Your code is 123456',
        registered_delivery: 1,
      });
      session.send(pdu, () => {
        if (++answered === o.n) resolve();
        else one();
      });
    };
    for (let i = 0; i < o.window; i++) one();
  });
  const submitted = performance.now();
  const end = performance.now() + receiptsLimitMs;
  while (receipts < o.n && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
  session.destroy();
  return {
    submits: answered,
    submitsPerS: answered / ((submitted - started) / 1000),
    receipts,
    receiptsPerS: receipts > 0 ? receipts / ((lastReceipt - started) / 1000) : undefined,
  };
}

async function bareRun(o: Options, phones: PhoneSequence): Promise<EsmeRun> {
  const script = join(import.meta.dirname, 'bare-smsc.js');
  const child = spawn(process.execPath, [script, '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout }).once('line', resolve),
    );
    const run = { port: Number(line), systemId: 'bare', password: 'bare', n: o.messages };
    return await runEsme({ ...run, window: o.smppWindow, nagle: o.esmeNagle }, phones, 0);
  } finally {
    child.kill('SIGKILL');
  }
}

export async function measureSmppServer(
  o: Options,
  phones: PhoneSequence,
): Promise<SmppServerFigures> {
  const bare = await bareRun(o, phones);
  const port = await freePort();
  const dir = freshDataDir(o.workDir, 'smpp-server');
  const { value } = await withBench(
    o,
    dir,
    'smpp-server',
    async (b) => {
      const cpu = CpuWindow.start(b.gw.pid);
      const run = { port, systemId: 'bench', password: 'bench', n: o.messages };
      const esme = { ...run, window: o.smppWindow, nagle: o.esmeNagle };
      const r = await runEsme(esme, phones, o.drainLimitS * 1000);
      return { ...r, cpuS: cpu.end().gatewayS, complete: r.receipts >= o.messages };
    },
    benchSmppServer(port),
  );
  return {
    messages: o.messages,
    window: o.smppWindow,
    nagle: o.esmeNagle,
    bare,
    wirebird: value,
    ratio: value.submitsPerS / bare.submitsPerS,
  };
}

export function smppServerTable(f: SmppServerFigures): string {
  return table([
    [
      'ESME',
      `one transceiver bind, window ${f.window}, GSM-7 single part, registered_delivery 1, ${f.nagle ? "Nagle's algorithm on" : 'TCP_NODELAY'}`,
    ],
    ['bare `smpp` server (answers at once)', `${fmt.int(f.bare.submitsPerS)} submits/s`],
    [
      'Wirebird SMPP server (stored before each resp)',
      `${fmt.int(f.wirebird.submitsPerS)} submits/s, gateway CPU ${fmt.s(f.wirebird.cpuS)}`,
    ],
    ['**Wirebird ÷ bare**', `**${Math.round(f.ratio * 100)} %** (target ≥ 80 %)`],
    [
      'receipts back to the ESME (first submit → last receipt)',
      `${fmt.int(f.wirebird.receipts)} of ${fmt.int(f.messages)} at ${fmt.int(f.wirebird.receiptsPerS ?? 0)}/s${f.wirebird.complete ? '' : ' (incomplete)'}`,
    ],
  ]);
}
