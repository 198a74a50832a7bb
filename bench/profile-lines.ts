import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ProfileNode } from './profile.js';

export interface HotLine {
  /** src/… path of the compiled file and the 1-based line. */
  where: string;
  code: string;
  selfMs: number;
}

const sources = new Map<string, string[]>();

function lineOf(url: string, line: number): string {
  let lines = sources.get(url);
  if (!lines) {
    try {
      lines = readFileSync(fileURLToPath(url), 'utf8').split('\n');
    } catch {
      lines = [];
    }
    sources.set(url, lines);
  }
  return (lines[line - 1] ?? '').trim().slice(0, 90);
}

/** Self time per line of our own code, from the profile's positionTicks. */
export function hotLines(nodes: readonly ProfileNode[], msPerTick: number): HotLine[] {
  const byLine = new Map<string, { url: string; line: number; ticks: number }>();
  for (const n of nodes) {
    const url = n.callFrame.url;
    const src = /\/(src\/.*)$/.exec(url);
    if (!src || !n.positionTicks) continue;
    for (const { line, ticks } of n.positionTicks) {
      const key = `${src[1]}:${line}`;
      const e = byLine.get(key) ?? { url, line, ticks: 0 };
      e.ticks += ticks;
      byLine.set(key, e);
    }
  }
  return [...byLine]
    .map(([where, e]) => ({ where, code: lineOf(e.url, e.line), selfMs: e.ticks * msPerTick }))
    .sort((a, b) => b.selfMs - a.selfMs);
}
