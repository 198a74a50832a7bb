import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hotLines, type HotLine } from './profile-lines.js';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
export interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  hitCount?: number;
  children?: number[];
  positionTicks?: { line: number; ticks: number }[];
}
export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples?: number[];
  timeDeltas?: number[];
}

export interface FunctionTime {
  name: string;
  where: string;
  selfMs: number;
  totalMs: number;
}

export interface ProfileSummary {
  file: string;
  /** Sampled time, and the part of it that was not (idle). */
  sampledMs: number;
  busyMs: number;
  functions: FunctionTime[];
  /** Self time by where the code lives: our src/, a package, node internals, GC. */
  byPlace: { place: string; selfMs: number }[];
  /** Our own source lines with the most self time (native SQLite calls land on their caller). */
  hotLines: HotLine[];
}

/** Shortens a url to what matters: the package, node's own module, or the path under src/. */
export function placeOf(url: string): string {
  if (!url) return '(native/VM)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1] as string;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0] ?? ''}`;
  const src = /\/(src|bench)\/(.*)$/.exec(url);
  return src ? `${src[1]}/${src[2]}` : url;
}

function keyOf(f: CallFrame): string {
  return `${f.functionName || '(anonymous)'}\t${placeOf(f.url)}`;
}

/** Self and total time per function (by name and place), walking each sample's stack once. */
export function summariseProfile(p: CpuProfile, file = ''): ProfileSummary {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const samples = p.samples ?? [];
  const deltas = p.timeDeltas ?? [];
  let sampledMs = 0;
  let idleMs = 0;
  for (let i = 0; i < samples.length; i++) {
    const ms = Math.max(0, deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
    sampledMs += ms;
    const leaf = byId.get(samples[i] as number);
    if (!leaf) continue;
    if (leaf.callFrame.functionName === '(idle)') idleMs += ms;
    const leafKey = keyOf(leaf.callFrame);
    self.set(leafKey, (self.get(leafKey) ?? 0) + ms);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const k = keyOf((byId.get(id) as ProfileNode).callFrame);
      if (!seen.has(k)) total.set(k, (total.get(k) ?? 0) + ms);
      seen.add(k);
    }
  }
  const functions = [...total].map(([k, totalMs]) => {
    const [name, where] = k.split('\t') as [string, string];
    return { name, where, selfMs: self.get(k) ?? 0, totalMs };
  });
  const msPerTick = sampledMs / Math.max(1, samples.length);
  return {
    file,
    sampledMs,
    busyMs: sampledMs - idleMs,
    functions,
    byPlace: places(functions),
    hotLines: hotLines(p.nodes, msPerTick),
  };
}

function places(functions: readonly FunctionTime[]) {
  const m = new Map<string, number>();
  for (const f of functions) {
    const place = f.where.startsWith('src/') ? `src/${f.where.split('/')[1] ?? ''}` : f.where;
    m.set(place, (m.get(place) ?? 0) + f.selfMs);
  }
  return [...m].map(([place, selfMs]) => ({ place, selfMs })).sort((a, b) => b.selfMs - a.selfMs);
}

/**
 * The summaries of the .cpuprofile files node wrote into `dir`: one per thread (its file name
 * carries the thread id), the main thread first.
 */
export function summariseProfileDir(dir: string): ProfileSummary[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .sort((a, b) => threadOf(a) - threadOf(b))
    .map((file) => {
      const path = join(dir, file);
      return summariseProfile(JSON.parse(readFileSync(path, 'utf8')) as CpuProfile, path);
    });
}

/** `CPU.<date>.<time>.<pid>.<thread>.<seq>.cpuprofile` → thread. */
function threadOf(file: string): number {
  return Number(file.split('.').at(-3));
}

/** One profileMarkdown per thread, each under the thread's name. */
export function profilesMarkdown(list: readonly ProfileSummary[]): string {
  return list
    .map((s) => {
      const thread = threadOf(s.file);
      return `### ${thread === 0 ? 'Main thread' : `Thread ${thread}`}\n\n${profileMarkdown(s)}`;
    })
    .join('\n\n');
}

const pct = (ms: number, of: number) => `${((100 * ms) / of).toFixed(1)}%`;

/** Markdown: top self time, top total time in our own code, and self time by place. */
export function profileMarkdown(s: ProfileSummary, top = 25): string {
  const busy = s.busyMs;
  const head = `Profile \`${s.file}\`: ${(s.sampledMs / 1000).toFixed(1)} s sampled, ${(busy / 1000).toFixed(1)} s busy (not idle). Percentages are of busy time.`;
  const bySelf = [...s.functions].sort((a, b) => b.selfMs - a.selfMs).slice(0, top);
  const selfRows = bySelf.map(
    (f) => `| ${pct(f.selfMs, busy)} | ${f.name} | ${f.where} | ${pct(f.totalMs, busy)} |`,
  );
  const ours = s.functions
    .filter((f) => f.where.startsWith('src/'))
    .sort((a, b) => b.totalMs - a.totalMs)
    .slice(0, top);
  const ourRows = ours.map(
    (f) => `| ${pct(f.totalMs, busy)} | ${f.name} | ${f.where} | ${pct(f.selfMs, busy)} |`,
  );
  const placeRows = s.byPlace.slice(0, 15).map((p) => `| ${pct(p.selfMs, busy)} | ${p.place} |`);
  const lineRows = s.hotLines
    .slice(0, 15)
    .map((l) => `| ${pct(l.selfMs, busy)} | ${l.where} | \`${l.code.replace(/\|/g, '\\|')}\` |`);
  return [
    head,
    '',
    '**Top self time**',
    '',
    '| self | function | where | total |',
    '| --- | --- | --- | --- |',
    ...selfRows,
    '',
    '**Our code by total (inclusive) time**',
    '',
    '| total | function | where | self |',
    '| --- | --- | --- | --- |',
    ...ourRows,
    '',
    '**Self time by place**',
    '',
    '| self | place |',
    '| --- | --- |',
    ...placeRows,
    '',
    '**Hottest lines of our code (compiled JS; a native SQLite call counts on its line)**',
    '',
    '| self | line | code |',
    '| --- | --- | --- |',
    ...lineRows,
  ].join('\n');
}
