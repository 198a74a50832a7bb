import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fmt } from '../stats.js';
import type { RunFigures } from './measure.js';
import { MESSAGE_KINDS } from './messages.js';
import type { ContenderName } from './options.js';

const NAMES: Record<ContenderName, (perRequest: number) => string> = {
  kannel: () => 'Kannel, 1 number per sendsms',
  'kannel-multi': (n) => `Kannel, ${n} numbers per sendsms`,
  wirebird: () => 'Wirebird, 1000 per SendBatchUSMSMessage',
  ceiling: () => 'bare smpp client (ceiling)',
};

function spread(values: number[], show: (n: number) => string): string {
  const v = values.filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (v.length === 0) return '–';
  const median = v[Math.floor((v.length - 1) / 2)] as number;
  if (v.length === 1) return show(median);
  return `${show(median)} (${show(v[0] as number)}–${show(v.at(-1) as number)})`;
}

const int = (n: number) => fmt.int(n);
const ms = (n: number) => n.toFixed(n < 10 ? 1 : 0);
const s2 = (n: number) => n.toFixed(2);

/** One row per contender of one message kind and window: medians (min–max) over its runs. */
function comboTable(runs: RunFigures[], perRequest: number): string {
  const order: ContenderName[] = ['kannel', 'kannel-multi', 'wirebird', 'ceiling'];
  const ceiling = runs.filter((f) => f.contender === 'ceiling').map((f) => f.endToEndPerS);
  const top = ceiling.sort((a, b) => a - b)[Math.floor((ceiling.length - 1) / 2)];
  const lines = [
    '| contender | accepted/s | end to end msg/s | of ceiling | receipts/s | accept→submit p50 / p99 ms | CPU s per 10k | peak RSS MB | complete |',
    '| --- | --: | --: | --: | --: | --: | --: | --: | --- |',
  ];
  for (const name of order) {
    const rs = runs.filter((f) => f.contender === name);
    if (rs.length === 0) continue;
    const pick = (k: keyof RunFigures) => rs.map((f) => f[k] as number);
    const share = top
      ? spread(
          pick('endToEndPerS').map((x) => (100 * x) / top),
          (n) => `${n.toFixed(0)} %`,
        )
      : '–';
    lines.push(
      `| ${NAMES[name](perRequest)} | ${spread(pick('acceptedPerS'), int)} | ${spread(pick('endToEndPerS'), int)} | ${share} | ${spread(pick('receiptsPerS'), int)} | ${spread(pick('latencyP50Ms'), ms)} / ${spread(pick('latencyP99Ms'), ms)} | ${spread(pick('cpuPer10kS'), s2)} | ${spread(pick('peakRssMb'), int)} | ${rs.filter((f) => f.complete).length} of ${rs.length} |`,
    );
  }
  return lines.join('\n');
}

/** Every run on its own line: what the machine was doing meanwhile. */
function noiseTable(runs: RunFigures[]): string {
  const lines = [
    '| run | load (1 min) | CPU: contender / SMSC sim / bench client / other processes (s) | receipts counted | first error |',
    '| --- | --: | --- | --- | --- |',
  ];
  runs.forEach((f, i) => {
    const cpu = [f.cpuS, f.simCpuS, f.benchCpuS, f.othersCpuS].map(s2).join(' / ');
    const err = f.firstError ? f.firstError.slice(0, 80).replace(/\|/g, '/') : '';
    lines.push(
      `| ${i + 1}. ${f.contender} ${f.kind} w${f.window} | ${f.load1.toFixed(2)} | ${cpu} | ${int(f.receipts)} (${f.receiptSource}) | ${err} |`,
    );
  });
  return lines.join('\n');
}

/** The tables for every kind and window measured, then each run's noise. */
export function report(all: RunFigures[], perRequest: number): string {
  const out: string[] = [];
  const combos = [...new Set(all.map((f) => `${f.kind}|${f.window}`))];
  for (const combo of combos) {
    const runs = all.filter((f) => `${f.kind}|${f.window}` === combo);
    const f = runs[0] as RunFigures;
    const label = MESSAGE_KINDS[f.kind].label;
    out.push(
      `### ${label}, window ${f.window}, ${int(f.messages)} messages per run\n`,
      comboTable(runs, perRequest),
      '',
    );
  }
  out.push('### Every run\n', noiseTable(all));
  return out.join('\n');
}

const BEGIN = '<!-- bench:kannel begin -->';
const END = '<!-- bench:kannel end -->';

/** Puts `section` into RESULTS.md between its markers, replacing the previous one. */
export function writeResults(file: string, section: string): void {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const block = `${BEGIN}\n${section.trim()}\n${END}`;
  const i = text.indexOf(BEGIN);
  const j = text.indexOf(END);
  const next =
    i >= 0 && j > i
      ? text.slice(0, i) + block + text.slice(j + END.length)
      : `${text.trimEnd()}\n\n${block}\n`;
  writeFileSync(file, next);
  // Formatted as the repository's prettier --check wants it, so a run leaves lint green.
  const prettier = join(process.cwd(), 'node_modules', 'prettier', 'bin', 'prettier.cjs');
  if (existsSync(prettier))
    spawnSync(process.execPath, [prettier, '--write', file], { stdio: 'ignore' });
}
