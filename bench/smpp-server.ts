/**
 * Issue 17's figures: submits an ESME gets accepted over one transceiver bind, window --window,
 * GSM-7 single part, registered_delivery on, against Wirebird's SMPP server (simulator channel
 * upstream, every submit durably stored before its resp) and against a bare `smpp` server that
 * answers every submit_sm at once, in the same run; and the receipts back to the ESME.
 */
import { spawn } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import smpp from 'smpp';
import { freePort, freshDataDir } from './gateway.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { CpuWindow, type CpuSplit } from './proc.js';
import { withBench } from './session.js';
import { fmt, table } from './stats.js';

export interface EsmeRun {
  submits: number;
  submitsPerS: number;
  receipts: number;
  /** First submit → last receipt, when receipts were asked for. */
  receiptsPerS: number | undefined;
}

/**
 * A run against a server, with the CPU its process and the bench's (the ESME's) spent, and how
 * busy the machine's cores were over the run (1 = every core, all the time).
 */
export type MeasuredRun = EsmeRun & { cpuS: number; esmeCpuS: number; machineBusy: number };

/** The CPU split of a window of `wallMs`, as a MeasuredRun's CPU fields. */
function measured(split: CpuSplit, wallMs: number) {
  const busyS = split.gatewayS + split.benchS + split.othersS;
  const machineBusy = busyS / ((wallMs / 1000) * availableParallelism());
  return { cpuS: split.gatewayS, esmeCpuS: split.benchS, machineBusy };
}

export interface SmppServerFigures {
  messages: number;
  window: number;
  nagle: boolean;
  receipts: boolean;
  bare: MeasuredRun;
  /** The bare server sending each receipt at once: what the ESME's asking costs, storing nothing. */
  bareReceipts: MeasuredRun | undefined;
  wirebird: MeasuredRun & { complete: boolean };
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
    /** registered_delivery 0 when false: no receipts asked, none awaited. */
    receipts?: boolean;
  },
  phones: PhoneSequence,
  receiptsLimitMs: number,
): Promise<EsmeRun> {
  const asked = o.receipts ?? true;
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
        registered_delivery: asked ? 1 : 0,
      });
      session.send(pdu, () => {
        if (++answered === o.n) resolve();
        else one();
      });
    };
    for (let i = 0; i < o.window; i++) one();
  });
  const submitted = performance.now();
  const end = performance.now() + (asked ? receiptsLimitMs : 0);
  while (receipts < o.n && performance.now() < end) await new Promise((r) => setTimeout(r, 20));
  session.destroy();
  return {
    submits: answered,
    submitsPerS: answered / ((submitted - started) / 1000),
    receipts,
    receiptsPerS: receipts > 0 ? receipts / ((lastReceipt - started) / 1000) : undefined,
  };
}

async function bareRun(o: Options, phones: PhoneSequence, receipts: boolean): Promise<MeasuredRun> {
  const script = join(import.meta.dirname, 'bare-smsc.js');
  const args = [script, '0', ...(receipts ? ['receipts'] : [])];
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const line = await new Promise<string>((resolve) =>
      createInterface({ input: child.stdout }).once('line', resolve),
    );
    const run = { port: Number(line), systemId: 'bare', password: 'bare', n: o.messages };
    const cpu = CpuWindow.start(child.pid ?? 0);
    const t0 = performance.now();
    const limitMs = receipts ? o.drainLimitS * 1000 : 0;
    const esme = { ...run, window: o.smppWindow, nagle: o.esmeNagle, receipts: !o.esmeNoReceipts };
    const r = await runEsme(esme, phones, limitMs);
    return { ...r, ...measured(cpu.end(), performance.now() - t0) };
  } finally {
    child.kill('SIGKILL');
  }
}

export async function measureSmppServer(
  o: Options,
  phones: PhoneSequence,
): Promise<SmppServerFigures> {
  const bare = await bareRun(o, phones, false);
  const bareReceipts = o.esmeNoReceipts ? undefined : await bareRun(o, phones, true);
  const port = await freePort();
  const dir = freshDataDir(o.workDir, 'smpp-server');
  const { value } = await withBench(
    o,
    dir,
    'smpp-server',
    async (b) => {
      const cpu = CpuWindow.start(b.gw.pid);
      const t0 = performance.now();
      const run = { port, systemId: 'bench', password: 'bench', n: o.messages };
      const esme = {
        ...run,
        window: o.smppWindow,
        nagle: o.esmeNagle,
        receipts: !o.esmeNoReceipts,
      };
      const r = await runEsme(esme, phones, o.drainLimitS * 1000);
      const complete = o.esmeNoReceipts || r.receipts >= o.messages;
      return { ...r, ...measured(cpu.end(), performance.now() - t0), complete };
    },
    benchSmppServer(port),
  );
  return {
    messages: o.messages,
    window: o.smppWindow,
    nagle: o.esmeNagle,
    receipts: !o.esmeNoReceipts,
    bare,
    bareReceipts,
    wirebird: value,
    ratio: value.submitsPerS / bare.submitsPerS,
  };
}

export function smppServerTable(f: SmppServerFigures): string {
  return table([
    [
      'ESME',
      `one transceiver bind, window ${f.window}, GSM-7 single part, registered_delivery ${f.receipts ? 1 : 0}, ${f.nagle ? "Nagle's algorithm on" : 'TCP_NODELAY'}`,
    ],
    ['bare `smpp` server (answers at once)', serverRun(f.bare)],
    ...receiptsCeiling(f),
    ['Wirebird SMPP server (stored before each resp)', serverRun(f.wirebird)],
    ['**Wirebird ÷ bare**', `**${Math.round(f.ratio * 100)} %** (target ≥ 80 %)`],
    [
      'receipts back to the ESME (first submit → last receipt)',
      `${fmt.int(f.wirebird.receipts)} of ${fmt.int(f.messages)} at ${fmt.int(f.wirebird.receiptsPerS ?? 0)}/s${f.wirebird.complete ? '' : ' (incomplete)'}`,
    ],
  ]);
}

/** A run's rate and the CPU per submit of the server's process and of the ESME (the bench). */
function serverRun(r: MeasuredRun): string {
  const us = (s: number) => fmt.int((s * 1e6) / Math.max(1, r.submits));
  const busy = `cores busy ${Math.round(r.machineBusy * 100)} %`;
  return `${fmt.int(r.submitsPerS)} submits/s; CPU per submit: server ${us(r.cpuS)} µs, ESME ${us(r.esmeCpuS)} µs; ${busy}`;
}

/** The rows of the bare server that sends receipts, and Wirebird against it. */
function receiptsCeiling(f: SmppServerFigures): [string, string][] {
  const c = f.bareReceipts;
  if (!c) return [];
  const pct = (a: number, b: number) => `${Math.round((a / b) * 100)} %`;
  return [
    [
      'bare `smpp` server sending each receipt at once',
      `${serverRun(c)}; ÷ bare ${pct(c.submitsPerS, f.bare.submitsPerS)}`,
    ],
    ['Wirebird ÷ the bare server sending receipts', pct(f.wirebird.submitsPerS, c.submitsPerS)],
  ];
}
