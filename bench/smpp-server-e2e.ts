/**
 * Issue 17's end-to-end figure: ESME → Wirebird's SMPP server → Wirebird's SMPP channel →
 * `wirebird smsc-sim` → receipts back through Wirebird to the ESME, measured beside the HTTP path
 * (SendBatchUSMSMessage of 1000 numbers, receipts back to Wirebird) through the same gateway and
 * the same simulator in the same run.
 */
import { performance } from 'node:perf_hooks';
import { startSim, type Sim } from './kannel/sim.js';
import { freePort, freshDataDir } from './gateway.js';
import { runLoad } from './load.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { CpuWindow } from './proc.js';
import { makeBodies, withBench, type Bench } from './session.js';
import { runEsme } from './smpp-server.js';
import { fmt, table } from './stats.js';

export interface PathRun {
  messages: number;
  /** First submit or request → last receipt (at the ESME / acknowledged by Wirebird). */
  endToEndPerS: number;
  acceptedPerS: number;
  cpuUsPerMessage: number;
  complete: boolean;
}

export interface SmppServerE2e {
  receiptDelayMs: number;
  esme: PathRun;
  http: PathRun;
}

function gatewayConfig(serverPort: number, sim: Sim, window: number) {
  const esme = { accountId: 1, systemId: 'bench', password: 'bench', maxTps: 100_000, window };
  const smsc = { name: 'sim', port: sim.port, systemId: 'wirebird', password: 'bench' };
  return {
    smppServer: { listen: `127.0.0.1:${serverPort}`, esmes: [esme] },
    smpp: {
      smscs: [{ ...smsc, window, binds: 1, tps: 1_000_000 }],
      routes: [{ prefix: '', smscs: ['sim'] }],
    },
  };
}

/** SendBatchUSMSMessage of `messages` numbers, followed until the simulator has every receipt acked. */
async function httpPath(o: Options, b: Bench, sim: Sim, phones: PhoneSequence): Promise<PathRun> {
  const acked = sim.stats()?.receiptsAcked ?? 0;
  const bodies = makeBodies(b, phones, Math.ceil(o.messages / o.batch), o.batch);
  const cpu = CpuWindow.start(b.gw.pid);
  const load = await runLoad(b.api, bodies, o.clients, o.timeLimitS * 1000);
  const want = acked + load.accepted;
  const done = await sim.waitFor((s) => s.receiptsAcked >= want, Date.now() + o.drainLimitS * 1000);
  const used = cpu.end();
  const endAt = (done?.lastReceiptAckAt ?? Date.now()) - performance.timeOrigin;
  return {
    messages: load.accepted,
    endToEndPerS: load.accepted / ((endAt - load.startMs) / 1000),
    acceptedPerS: load.accepted / ((load.endMs - load.startMs) / 1000),
    cpuUsPerMessage: (used.gatewayS * 1e6) / Math.max(1, load.accepted),
    complete: (done?.receiptsAcked ?? 0) >= want,
  };
}

async function esmePath(o: Options, b: Bench, port: number, phones: PhoneSequence) {
  const cpu = CpuWindow.start(b.gw.pid);
  const run = { port, systemId: 'bench', password: 'bench', n: o.messages, window: o.smppWindow };
  const nagle = o.esmeNagle;
  const r = await runEsme({ ...run, nagle }, phones, o.drainLimitS * 1000);
  const used = cpu.end();
  return {
    messages: r.submits,
    endToEndPerS: r.receiptsPerS ?? 0,
    acceptedPerS: r.submitsPerS,
    cpuUsPerMessage: (used.gatewayS * 1e6) / Math.max(1, r.submits),
    complete: r.receipts >= o.messages,
  };
}

export async function measureSmppServerE2e(
  o: Options,
  phones: PhoneSequence,
): Promise<SmppServerE2e> {
  const dir = freshDataDir(o.workDir, 'smpp-server-e2e');
  const sim = await startSim(o.gatewayMain, dir, o.receiptDelayMs);
  try {
    const port = await freePort();
    const { value } = await withBench(
      o,
      dir,
      'smpp-server-e2e',
      async (b) => {
        await sim.waitFor((s) => s.binds >= 1, Date.now() + 30_000);
        const esme = await esmePath(o, b, port, phones);
        const http = await httpPath(o, b, sim, phones);
        return { esme, http };
      },
      gatewayConfig(port, sim, o.smppWindow),
    );
    return { receiptDelayMs: o.receiptDelayMs, ...value };
  } finally {
    await sim.stopAndReadLog();
  }
}

export function smppServerE2eTable(f: SmppServerE2e): string {
  const row = (label: string, p: PathRun): [string, string] => [
    label,
    `**${fmt.int(p.endToEndPerS)}/s** end to end (accepted ${fmt.int(p.acceptedPerS)}/s), ` +
      `${fmt.int(p.messages)} messages, gateway CPU ${fmt.us(p.cpuUsPerMessage)} per message` +
      (p.complete ? '' : ' (incomplete)'),
  ];
  return table([
    ['upstream', `\`wirebird smsc-sim\`, one bind, receipts after ${f.receiptDelayMs} ms`],
    row('ESME → SMPP server → smsc-sim → receipts to the ESME', f.esme),
    row('HTTP SendBatchUSMSMessage → smsc-sim → receipts to Wirebird', f.http),
    ['ESME path ÷ HTTP path', `${Math.round((100 * f.esme.endToEndPerS) / f.http.endToEndPerS)} %`],
  ]);
}
