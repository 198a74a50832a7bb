/**
 * Issue 37's targets. Acceptance with SendAt against acceptance without, alternating, each run
 * on a fresh store with dispatch held back (--isolate), on SQLite and, given --database-url, on
 * PostgreSQL. End to end of unscheduled traffic (the dispatch scenario) on an empty store against
 * one holding --held messages due in 30 days, alternating. And --release messages falling due at
 * once: on an empty store, and among the --held ones; the rate each is sent at.
 */
import { rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { createScratchSchema } from '../src/store/postgres/scratch-schema.js';
import { measureAcceptance } from './acceptance.js';
import { measureDispatch } from './dispatch.js';
import { initialisedDataDir } from './flat.js';
import { freshDataDir } from './gateway.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { holdMessages } from './prefill.js';
import { waitForReceipts } from './receipts.js';
import { withBench } from './session.js';
import { fmt, quantile } from './stats.js';

const DAY_MS = 86_400_000;
/** Time for the gateway to start before the released set falls due. */
const START_MARGIN_MS = 15_000;
/** Numbers of the held and released sets: a part of the 139 range of their own. */
const HELD_PHONES = 60_000_000;
const RELEASED_PHONES = 70_000_000;

/** Rates (per second) of the runs of two arms, in the order they ran. */
export interface Pair {
  what: string;
  a: number[];
  b: number[];
}

export interface ScheduledFigures {
  acceptance: Pair[];
  /** Absent with --held 0: acceptance alone. */
  held?: { endToEnd: Pair; release: Pair; count: number; seconds: number };
}

/** Runs `arm(false)` and `arm(true)` `rounds` times, which goes first alternating. */
export async function alternate(
  rounds: number,
  arm: (second: boolean) => Promise<number>,
): Promise<{ a: number[]; b: number[] }> {
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const second of r % 2 === 0 ? [false, true] : [true, false]) {
      (second ? b : a).push(await arm(second));
    }
  }
  return { a, b };
}

/** Accepted per second on a fresh store (a fresh schema on PostgreSQL), dispatch held back. */
async function acceptedPerS(o: Options, phones: PhoneSequence, pg: boolean, sendAt: boolean) {
  const dir = freshDataDir(o.workDir, sendAt ? 'sendat' : 'plain');
  const scratch = pg ? await createScratchSchema(o.databaseUrl ?? '', 'wb_bench_held') : undefined;
  try {
    const f = await measureAcceptance({ ...o, isolate: true }, dir, phones, {
      label: `${pg ? 'postgres' : 'sqlite'}-${sendAt ? 'sendat' : 'plain'}`,
      ...(sendAt ? { fields: () => ({ SendAt: Math.floor((Date.now() + DAY_MS) / 1000) }) } : {}),
      ...(scratch ? { config: { database: { url: scratch.url } } } : {}),
    });
    if (f.failed > 0) throw new Error(`acceptance refused requests: ${f.firstError}`);
    return f.acceptedPerS;
  } finally {
    await scratch?.drop();
    if (!o.keep) rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `count` messages due START_MARGIN_MS from now added to `dir`, then a gateway started on it:
 * the rate from their due time until every one has its final receipt.
 */
async function releasedPerS(o: Options, dir: string, label: string, firstPhone: number) {
  const dueAt = Date.now() + START_MARGIN_MS;
  const due = { count: o.release, dueAt, firstPhone };
  const { sessions } = await holdMessages(dir, due);
  const { value } = await withBench(o, dir, label, async (b) => {
    await sleep(Math.max(0, dueAt - Date.now()));
    const from = performance.now();
    const drain = await waitForReceipts(b.api, sessions, from + o.drainLimitS * 1000);
    if (!drain.complete) throw new Error(`${label}: ${drain.finals} of ${o.release} final`);
    return drain.finals / ((drain.doneMs - from) / 1000);
  });
  return value;
}

export async function measureScheduled(
  o: Options,
  phones: PhoneSequence,
): Promise<ScheduledFigures> {
  const acceptance: Pair[] = [];
  for (const pg of o.databaseUrl ? [false, true] : [false]) {
    const rates = await alternate(o.rounds, (sendAt) => acceptedPerS(o, phones, pg, sendAt));
    acceptance.push({ what: pg ? 'PostgreSQL' : 'SQLite', ...rates });
  }
  return { acceptance, ...(o.held > 0 ? { held: await heldRuns(o, phones) } : {}) };
}

/** End to end beside --held messages, and --release of them falling due at once. */
async function heldRuns(o: Options, phones: PhoneSequence) {
  const heldDir = await initialisedDataDir(o, freshDataDir(o.workDir, 'held'));
  const hold = { count: o.held, dueAt: Date.now() + 30 * DAY_MS, firstPhone: HELD_PHONES };
  const { seconds } = await holdMessages(heldDir, hold);
  const endToEnd = await alternate(o.rounds, async (held) => {
    const dir = held ? heldDir : freshDataDir(o.workDir, 'e2e-empty');
    const f = await measureDispatch(o, dir, phones, undefined, held ? 'e2e-held' : 'e2e-empty');
    if (!held && !o.keep) rmSync(dir, { recursive: true, force: true });
    if (!f.complete) throw new Error(`end to end: ${f.finals} of ${f.accepted} final`);
    return f.dispatchedPerS;
  });
  let round = 0;
  const release = await alternate(o.rounds, async (held) => {
    const dir = held ? heldDir : await initialisedDataDir(o, freshDataDir(o.workDir, 'fresh'));
    const firstPhone = RELEASED_PHONES + round++ * o.release;
    const rate = await releasedPerS(o, dir, held ? 'released' : 'fresh', firstPhone);
    if (!held && !o.keep) rmSync(dir, { recursive: true, force: true });
    return rate;
  });
  if (!o.keep) rmSync(heldDir, { recursive: true, force: true });
  const heldLabel = `${fmt.int(o.held)} held`;
  return {
    endToEnd: { what: `end to end, empty store / ${heldLabel}`, ...endToEnd },
    release: {
      what: `${fmt.int(o.release)} due at once: empty store / among ${heldLabel}`,
      ...release,
    },
    count: o.held,
    seconds,
  };
}

export function pairRow(p: Pair, unit: string): string {
  const median = (v: number[]) => quantile(v, 0.5);
  const runs = (v: number[]) => v.map((x) => fmt.int(x)).join(', ');
  const ratio = ((100 * median(p.b)) / median(p.a)).toFixed(1);
  return `| ${p.what} | ${fmt.int(median(p.a))} ${unit} (${runs(p.a)}) | ${fmt.int(median(p.b))} ${unit} (${runs(p.b)}) | ${ratio} % |`;
}

export function scheduledTable(f: ScheduledFigures): string {
  const h = f.held;
  return [
    '| measure | without (median, runs) | with (median, runs) | with / without |',
    '| --- | --- | --- | --- |',
    ...f.acceptance.map((p) => pairRow({ ...p, what: `${p.what}: acceptance, SendAt` }, '/s')),
    ...(h ? [pairRow(h.endToEnd, '/s'), pairRow(h.release, '/s')] : []),
    ...(h
      ? [
          '',
          `${fmt.int(h.count)} messages held (due in 30 days) were added in ${fmt.s(h.seconds)} through store.acceptBatch.`,
        ]
      : []),
  ].join('\n');
}
