import { runLoad, type LoadResult } from './load.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { CpuWindow, type CpuSplit } from './proc.js';
import type { ProfileSummary } from './profile.js';
import { gatewayFigures, makeBodies, withBench, type Bench } from './session.js';
import { ceilingRows, type CeilingFigures } from './sqlite-ceiling.js';
import { fmt, quantile, table } from './stats.js';

export interface AcceptanceFigures {
  label: string;
  requests: number;
  accepted: number;
  failed: number;
  firstError: string | undefined;
  timedOut: boolean;
  wallS: number;
  acceptedPerS: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** Gateway CPU (user + system) during the measured window, and per accepted message. */
  cpuS: number;
  cpuUsPerMessage: number;
  /** CPU the bench client and every other process on the machine used in the same window. */
  benchCpuS: number;
  othersCpuS: number;
  diskReadMb: number;
  peakRssMb: number;
  hwmMb: number;
  rssTimeline: [number, number][];
  logged: number;
  firstLogged: string | undefined;
  profile: ProfileSummary[] | undefined;
}

function figures(label: string, r: LoadResult, cpu: CpuSplit) {
  const wallS = (r.endMs - r.startMs) / 1000;
  const cpuS = cpu.gatewayS;
  return {
    label,
    requests: r.sent,
    accepted: r.accepted,
    failed: r.failed,
    firstError: r.firstError,
    timedOut: r.timedOut,
    wallS,
    acceptedPerS: r.accepted / wallS,
    p50Ms: quantile(r.latenciesMs, 0.5),
    p99Ms: quantile(r.latenciesMs, 0.99),
    maxMs: quantile(r.latenciesMs, 1),
    cpuS,
    cpuUsPerMessage: r.accepted > 0 ? (cpuS * 1e6) / r.accepted : NaN,
    benchCpuS: cpu.benchS,
    othersCpuS: cpu.othersS,
    diskReadMb: cpu.diskReadMb,
  };
}

/**
 * SendBatchUSMSMessage of `batch` distinct numbers from `clients` concurrent clients: a warm-up,
 * then `requests` measured requests (bounded by the time limit). The dispatcher runs meanwhile,
 * as it does in production, draining what is accepted through the zero-delay simulator.
 */
export async function measureAcceptance(
  o: Options,
  dataDir: string,
  phones: PhoneSequence,
  run: AcceptanceRun = {},
): Promise<AcceptanceFigures> {
  const label = run.label ?? 'acceptance';
  const bench = async (b: Bench) => {
    await run.prepare?.(b);
    const warm = makeBodies(b, phones, o.warmup, o.batch, run.fields);
    const bodies = makeBodies(b, phones, o.requests, o.batch, run.fields);
    await runLoad(b.api, warm, o.clients, o.timeLimitS * 1000);
    const cpu = CpuWindow.start(b.gw.pid);
    const load = await runLoad(b.api, bodies, o.clients, o.timeLimitS * 1000);
    return figures(label, load, cpu.end());
  };
  const { value, ended } = await withBench(o, dataDir, label, bench, run.config);
  return { ...value, ...gatewayFigures(ended) };
}

/** One acceptance run: its label, fields beside TaskContent, the gateway's config file. */
export interface AcceptanceRun {
  label?: string;
  fields?: () => Record<string, unknown>;
  config?: Record<string, unknown>;
  /** Called once the gateway is up, before the warm-up (an account's policy, say). */
  prepare?: (b: Bench) => Promise<void>;
}

export function acceptanceTable(f: AcceptanceFigures, ceiling?: CeilingFigures): string {
  return table([
    ['requests measured (1000 numbers each)', fmt.int(f.requests)],
    ['messages accepted', fmt.int(f.accepted)],
    ['failed requests', `${f.failed}${f.firstError ? ` (first: ${f.firstError})` : ''}`],
    ['wall time', fmt.s(f.wallS) + (f.timedOut ? ' (time limit hit)' : '')],
    ['**accepted per second**', `**${fmt.int(f.acceptedPerS)}** (target ≥ 100,000)`],
    ['request latency p50', fmt.ms(f.p50Ms)],
    ['request latency p99', fmt.ms(f.p99Ms)],
    ['request latency max', fmt.ms(f.maxMs)],
    ['gateway CPU in the window (user+sys)', fmt.s(f.cpuS)],
    ['gateway CPU per accepted message', fmt.us(f.cpuUsPerMessage)],
    [
      'CPU of the bench client / of other processes, same window',
      `${fmt.s(f.benchCpuS)} / ${fmt.s(f.othersCpuS)}`,
    ],
    [
      'gateway warnings/errors logged',
      `${f.logged}${f.firstLogged ? ` (first: ${f.firstLogged})` : ''}`,
    ],
    [
      '**gateway peak RSS** (VmRSS sampled / VmHWM)',
      `**${fmt.mb(f.peakRssMb)}** / ${fmt.mb(f.hwmMb)} (target < 300 MB)`,
    ],
    ...(ceiling ? ceilingRows(ceiling, f.acceptedPerS) : []),
  ]);
}
