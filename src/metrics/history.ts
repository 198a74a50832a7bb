import type { Counter } from 'prom-client';
import type { Clock } from '../domain/ports.js';
import type { Metrics } from './metrics.js';

/** Counter totals at one moment. */
interface Totals {
  at: number;
  accepted: number;
  submitted: number;
  receipts: number;
  delivered: number;
}

/** Rates over one interval, for the console's Health graphs. */
export interface RatePoint {
  at: number;
  acceptedPerS: number;
  submittedPerS: number;
  receiptsPerS: number;
  /** Success receipts among the receipts of the interval; undefined when there were none. */
  deliveryRate: number | undefined;
}

async function total<L extends string>(
  counter: Counter<L>,
  only?: Partial<Record<L, string>>,
): Promise<number> {
  const { values } = await counter.get();
  const match = (labels: Partial<Record<string, string | number>>) =>
    Object.entries(only ?? {}).every(([k, v]) => labels[k] === v);
  return values.filter((v) => match(v.labels)).reduce((n, v) => n + v.value, 0);
}

/**
 * Samples the metrics' counters every interval and keeps the last hour in memory: the Health
 * page's graphs. Kept per process and lost on restart, like the counters it reads; Prometheus
 * is the place for longer or cluster-wide history.
 */
export class MetricsHistory {
  private samples: Totals[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly metrics: Metrics,
    private readonly clock: Clock,
    readonly intervalMs = 10_000,
    private readonly keepMs = 3600_000,
  ) {}

  start(): void {
    void this.sample();
    this.timer = setInterval(() => void this.sample(), this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async sample(): Promise<void> {
    const t = await this.totals();
    this.samples.push(t);
    const cutoff = t.at - this.keepMs;
    while ((this.samples[0]?.at ?? Infinity) < cutoff) this.samples.shift();
  }

  /** Rates between consecutive samples, the last one up to now. */
  async rates(): Promise<RatePoint[]> {
    const points = [...this.samples, await this.totals()];
    const out: RatePoint[] = [];
    for (let i = 1; i < points.length; i++) {
      // i runs from 1 to the last index: both points are there.
      const a = points[i - 1] as Totals;
      // (the same: i is an index of points)
      const b = points[i] as Totals;
      const s = (b.at - a.at) / 1000;
      if (s <= 0) continue;
      const receipts = b.receipts - a.receipts;
      out.push({
        at: b.at,
        acceptedPerS: (b.accepted - a.accepted) / s,
        submittedPerS: (b.submitted - a.submitted) / s,
        receiptsPerS: receipts / s,
        deliveryRate: receipts > 0 ? (b.delivered - a.delivered) / receipts : undefined,
      });
    }
    return out;
  }

  private async totals(): Promise<Totals> {
    const m = this.metrics;
    return {
      at: this.clock.now(),
      accepted: await total(m.accepted),
      submitted: await total(m.submitted),
      receipts: await total(m.final),
      delivered: await total(m.final, { result: 'Success' }),
    };
  }
}
