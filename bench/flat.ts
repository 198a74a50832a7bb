import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { measureAcceptance, type AcceptanceFigures } from './acceptance.js';
import { freshDataDir, startGateway } from './gateway.js';
import type { PhoneSequence } from './numbers.js';
import type { Options } from './options.js';
import { prefill, settle, storedMessages, type PrefillResult } from './prefill.js';
import { fmt } from './stats.js';

export interface FlatFigures {
  empty: AcceptanceFigures;
  full: AcceptanceFigures;
  storedBefore: number;
  prefill: PrefillResult | undefined;
  dataDir: string;
}

/** A data dir the gateway has initialised (schema, dev account, admin key), gateway stopped. */
export async function initialisedDataDir(o: Options, dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  if (existsSync(join(dir, 'dev-account.key'))) return dir;
  const gw = await startGateway({ main: o.gatewayMain, dataDir: dir });
  await gw.stop();
  return dir;
}

/** Fills `--data-dir` (or a fresh dir) to `--prefill` messages; reuses what is already there. */
export async function prefilledDataDir(o: Options): Promise<{ dir: string; run?: PrefillResult }> {
  const dir = await initialisedDataDir(o, o.dataDir ?? freshDataDir(o.workDir, 'prefilled'));
  const settled = settle(dir);
  if (settled > 0) console.error(`${settled} undispatched messages of earlier runs settled`);
  if (storedMessages(dir) >= o.prefill) return { dir };
  console.error(`prefilling ${dir} to ${o.prefill.toLocaleString('en-US')} messages…`);
  return { dir, run: await prefill(dir, o.prefill, o.prefillLimitS) };
}

/** The same acceptance measurement on an empty store and on one holding --prefill messages. */
export async function measureFlat(o: Options, phones: PhoneSequence): Promise<FlatFigures> {
  const emptyDir = freshDataDir(o.workDir, 'empty');
  const empty = await measureAcceptance(o, emptyDir, phones, { label: 'flat-empty' });
  if (!o.keep) rmSync(emptyDir, { recursive: true, force: true });
  const { dir, run } = await prefilledDataDir(o);
  const storedBefore = storedMessages(dir);
  const full = await measureAcceptance(o, dir, phones, { label: 'flat-full' });
  return { empty, full, storedBefore, prefill: run, dataDir: dir };
}

export function prefillLine(p: PrefillResult): string {
  return (
    `Prefill: ${fmt.int(p.stored - p.before)} messages added (${fmt.int(p.before)} → ` +
    `${fmt.int(p.stored)}) in ${fmt.s(p.seconds)}, ${fmt.int(p.perS)}/s through ` +
    `store.acceptBatch + finalisation; database file ${p.dbGb.toFixed(2)} GB` +
    (p.limitHit ? ' — stopped at the prefill time limit' : '')
  );
}

export function flatTable(f: FlatFigures): string {
  const { empty: a, full: b } = f;
  const ratio = (x: number, y: number) => `${((100 * y) / x).toFixed(0)}%`;
  const row = (k: string, x: string, y: string, r: string) => `| ${k} | ${x} | ${y} | ${r} |`;
  return [
    `| measure | empty store | ${fmt.int(f.storedBefore)} stored | full / empty |`,
    '| --- | --- | --- | --- |',
    row(
      'accepted per second',
      fmt.int(a.acceptedPerS),
      fmt.int(b.acceptedPerS),
      ratio(a.acceptedPerS, b.acceptedPerS),
    ),
    row(
      'gateway CPU per message',
      fmt.us(a.cpuUsPerMessage),
      fmt.us(b.cpuUsPerMessage),
      ratio(a.cpuUsPerMessage, b.cpuUsPerMessage),
    ),
    row('latency p50', fmt.ms(a.p50Ms), fmt.ms(b.p50Ms), ratio(a.p50Ms, b.p50Ms)),
    row('latency p99', fmt.ms(a.p99Ms), fmt.ms(b.p99Ms), ratio(a.p99Ms, b.p99Ms)),
    row(
      'peak RSS (sampled)',
      fmt.mb(a.peakRssMb),
      fmt.mb(b.peakRssMb),
      ratio(a.peakRssMb, b.peakRssMb),
    ),
    row('messages accepted', fmt.int(a.accepted), fmt.int(b.accepted), ''),
    row('gateway reads from storage', fmt.mb(a.diskReadMb), fmt.mb(b.diskReadMb), ''),
    row("other processes' CPU, same window", fmt.s(a.othersCpuS), fmt.s(b.othersCpuS), ''),
  ].join('\n');
}
