import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { PhoneSequence } from '../numbers.js';
import { CpuWindow, readProc } from '../proc.js';
import { quantile } from '../stats.js';
import { stop } from './children.js';
import type { Contender, ReceiptSpan, RunSetup } from './contender.js';
import type { Acceptance } from './kannel-load.js';
import type { MessageKind } from './messages.js';
import type { ContenderName, KannelBenchOptions } from './options.js';
import { startSim, type SimStats } from './sim.js';

export interface RunFigures {
  contender: ContenderName;
  kind: MessageKind['kind'];
  window: number;
  messages: number;
  accepted: number;
  failedRequests: number;
  /** Accepted per second, first request → last answer (NaN for the bare client). */
  acceptedPerS: number;
  /** Messages (distinct destinations) submitted per second, first → last submit_sm at the SMSC. */
  endToEndPerS: number;
  submitted: number;
  receipts: number;
  receiptsPerS: number;
  receiptSource: string;
  /** Accept (the HTTP answer) → first submit_sm of that number at the SMSC. */
  latencyP50Ms: number;
  latencyP99Ms: number;
  cpuS: number;
  cpuPer10kS: number;
  peakRssMb: number;
  simCpuS: number;
  benchCpuS: number;
  othersCpuS: number;
  load1: number;
  complete: boolean;
  firstError: string | undefined;
  profile: string | undefined;
}

export type Starter = (r: RunSetup) => Promise<Contender>;

/** Peak of the summed VmRSS of `pids`, sampled every 200 ms until stopped. */
function rssPeak(pids: readonly number[]): () => number {
  let peak = 0;
  const sample = () => {
    const sum = pids.reduce((a, pid) => a + (readProc(pid)?.rssMb ?? 0), 0);
    peak = Math.max(peak, sum);
  };
  sample();
  const timer = setInterval(sample, 200);
  return () => {
    clearInterval(timer);
    sample();
    return peak;
  };
}

function latencies(a: Acceptance | undefined, firstSubmit: Map<string, number>): number[] {
  if (!a) return [];
  const out: number[] = [];
  for (const [to, acceptedAt] of a.acceptedAt) {
    const at = firstSubmit.get(to);
    if (at !== undefined) out.push(at - acceptedAt);
  }
  return out;
}

interface Observed {
  acc: Acceptance | undefined;
  span: ReceiptSpan;
  stats: SimStats | undefined;
  cpu: ReturnType<CpuWindow['end']>;
  simCpuS: number;
  peakRssMb: number;
}

async function observe(c: Contender, r: RunSetup): Promise<Observed> {
  const sim0 = readProc(r.sim.proc.pid)?.cpuS ?? 0;
  const window = CpuWindow.start(c.pids);
  const peak = rssPeak(c.pids);
  const acc = await c.send();
  const span = await c.receipts(Date.now() + r.o.drainLimitS * 1000);
  const cpu = window.end();
  const simCpuS = (readProc(r.sim.proc.pid)?.cpuS ?? sim0) - sim0;
  return { acc, span, stats: r.sim.stats(), cpu, simCpuS, peakRssMb: peak() };
}

function figures(r: RunSetup, name: ContenderName, ob: Observed, first: Map<string, number>) {
  const { acc, span, stats, cpu } = ob;
  const lat = latencies(acc, first);
  const n = r.phones.length;
  const perS = (count: number, from: number, to: number) =>
    to > from ? count / ((to - from) / 1000) : NaN;
  return {
    contender: name,
    kind: r.kind.kind,
    window: r.window,
    messages: n,
    accepted: acc?.accepted ?? NaN,
    failedRequests: acc?.failed ?? 0,
    acceptedPerS: acc ? perS(acc.accepted, acc.startAt, acc.endAt) : NaN,
    endToEndPerS: perS(first.size, stats?.firstSubmitAt ?? 0, stats?.lastSubmitAt ?? 0),
    submitted: stats?.accepted ?? 0,
    receipts: span.count,
    receiptsPerS: perS(span.count, span.firstAt, span.lastAt),
    receiptSource: span.source,
    latencyP50Ms: quantile(lat, 0.5),
    latencyP99Ms: quantile(lat, 0.99),
    cpuS: cpu.gatewayS,
    cpuPer10kS: (cpu.gatewayS * 10_000) / n,
    peakRssMb: ob.peakRssMb,
    simCpuS: ob.simCpuS,
    benchCpuS: cpu.benchS,
    // machineBusy minus the contender and the bench: the simulator is in there, take it out too.
    othersCpuS: Math.max(0, cpu.othersS - ob.simCpuS),
    load1: loadavg()[0] ?? NaN,
    complete: first.size === n && (stats?.receiptsAcked ?? 0) >= n * r.kind.parts,
    firstError: acc?.firstError,
  };
}

/**
 * One run of one contender: a fresh simulator, the contender started and bound, every message
 * sent and every receipt waited for (bounded), then everything stopped by pid, whatever happened.
 */
export async function runOnce(
  o: KannelBenchOptions,
  name: ContenderName,
  start: Starter,
  kind: MessageKind,
  window: number,
): Promise<RunFigures> {
  mkdirSync(o.workDir, { recursive: true });
  const dir = mkdtempSync(join(o.workDir, `${name}-${kind.kind}-w${window}-`));
  const sim = await startSim(o.gatewayMain, dir, o.receiptDelayMs);
  try {
    const phones = new PhoneSequence('138').take(o.messages);
    const r: RunSetup = { o, sim, kind, window, dir, phones };
    const c = await start(r);
    let ob: Observed;
    let profile: string | undefined;
    try {
      ob = await observe(c, r);
    } finally {
      profile = await c.stop();
    }
    const first = await sim.stopAndReadLog();
    return { ...figures(r, name, ob, first), profile };
  } finally {
    await stop(sim.proc);
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
  }
}
