import { performance } from 'node:perf_hooks';
import { runLoad } from './load.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { CpuWindow } from './proc.js';
import type { ProfileSummary } from './profile.js';
import { waitForReceipts } from './receipts.js';
import { gatewayFigures, makeBodies, withBench } from './session.js';
import { fmt, quantile, table } from './stats.js';

export interface DispatchFigures {
  sent: number;
  accepted: number;
  failedRequests: number;
  sendS: number;
  acceptedPerS: number;
  p50Ms: number;
  p99Ms: number;
  finals: number;
  complete: boolean;
  byResult: Record<string, number>;
  /** First request out → every message seen with a final receipt. */
  endToEndS: number;
  dispatchedPerS: number;
  /** Last answer → every message final: the backlog dispatch still had when sending stopped. */
  drainAfterSendS: number;
  confirmS: number;
  cpuS: number;
  benchCpuS: number;
  othersCpuS: number;
  /** Peak VmRSS while sending and dispatching, before the confirming pass over all receipts. */
  dispatchPeakRssMb: number;
  peakRssMb: number;
  hwmMb: number;
  rssTimeline: [number, number][];
  logged: number;
  firstLogged: string | undefined;
  profile: ProfileSummary[] | undefined;
}

/**
 * Sends `messages` (in requests of `batch`) as fast as `clients` can, then follows them until
 * every one has a final receipt through the zero-delay simulator. Bounded by the time limits.
 */
export async function measureDispatch(
  o: Options,
  dataDir: string,
  phones: PhoneSequence,
  config?: Record<string, unknown>,
  label = 'dispatch',
): Promise<DispatchFigures> {
  const { value, ended } = await withBench(
    o,
    dataDir,
    label,
    async (b) => {
      const bodies = makeBodies(b, phones, Math.ceil(o.messages / o.batch), o.batch);
      const window = CpuWindow.start(b.gw.pid);
      const load = await runLoad(b.api, bodies, o.clients, o.timeLimitS * 1000);
      let dispatchPeakRssMb = NaN;
      const drain = await waitForReceipts(
        b.api,
        load.sessions,
        performance.now() + o.drainLimitS * 1000,
        () => (dispatchPeakRssMb = b.sampler.peakRssMb),
      );
      const cpu = window.end();
      const endToEndS = (drain.doneMs - load.startMs) / 1000;
      const sendS = (load.endMs - load.startMs) / 1000;
      return {
        sent: load.sent,
        accepted: load.accepted,
        failedRequests: load.failed,
        sendS,
        acceptedPerS: load.accepted / sendS,
        p50Ms: quantile(load.latenciesMs, 0.5),
        p99Ms: quantile(load.latenciesMs, 0.99),
        finals: drain.finals,
        complete: drain.complete && drain.finals === load.accepted,
        byResult: drain.byResult,
        endToEndS,
        dispatchedPerS: drain.finals / endToEndS,
        drainAfterSendS: (drain.doneMs - load.endMs) / 1000,
        confirmS: (drain.confirmedMs - drain.doneMs) / 1000,
        dispatchPeakRssMb,
        cpuS: cpu.gatewayS,
        benchCpuS: cpu.benchS,
        othersCpuS: cpu.othersS,
      };
    },
    config,
  );
  return { ...value, ...gatewayFigures(ended) };
}

export function dispatchTable(f: DispatchFigures, target = 20_000): string {
  const results = Object.entries(f.byResult)
    .map(([k, n]) => `${k} ${fmt.int(n)}`)
    .join(', ');
  return table([
    [
      'messages accepted',
      `${fmt.int(f.accepted)} in ${f.sent} requests (${f.failedRequests} failed)`,
    ],
    [
      'sending phase',
      `${fmt.s(f.sendS)}: ${fmt.int(f.acceptedPerS)} accepted/s, p50 ${fmt.ms(f.p50Ms)}, p99 ${fmt.ms(f.p99Ms)}`,
    ],
    [
      'final receipts',
      `${fmt.int(f.finals)} (${results || 'none'})${f.complete ? '' : ' — INCOMPLETE'}`,
    ],
    ['first request → last final receipt', fmt.s(f.endToEndS)],
    [
      '**dispatched per second, end to end**',
      `**${fmt.int(f.dispatchedPerS)}** (target ≥ ${fmt.int(target)})`,
    ],
    ['backlog drained after the last accept', fmt.s(f.drainAfterSendS)],
    ['confirming pass over all sessions', fmt.s(f.confirmS)],
    ['gateway CPU (user+sys), whole run', fmt.s(f.cpuS)],
    ['gateway CPU per message, end to end', fmt.us((f.cpuS * 1e6) / Math.max(1, f.finals))],
    [
      'CPU of the bench client / of other processes, same window',
      `${fmt.s(f.benchCpuS)} / ${fmt.s(f.othersCpuS)}`,
    ],
    [
      'gateway warnings/errors logged',
      `${f.logged}${f.firstLogged ? ` (first: ${f.firstLogged})` : ''}`,
    ],
    [
      '**gateway peak RSS, send + dispatch** (VmRSS sampled)',
      `**${fmt.mb(f.dispatchPeakRssMb)}** (target < 300 MB)`,
    ],
    [
      'gateway peak RSS incl. the confirming pass (VmRSS sampled / VmHWM)',
      `${fmt.mb(f.peakRssMb)} / ${fmt.mb(f.hwmMb)}`,
    ],
  ]);
}
