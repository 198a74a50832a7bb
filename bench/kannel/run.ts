/**
 * Side by side with Kannel (issue 8): Kannel 1.4.5 (bearerbox + smsbox, run by hand) and
 * Wirebird send the same messages to the same `wirebird smsc-sim`, with the same window and one
 * bind each; a bare smpp client measures the ceiling. `npm run bench:kannel -- --help`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeMachine } from '../machine.js';
import { startCeiling } from './ceiling-side.js';
import { stopAllOnExit } from './children.js';
import { findKannel, type KannelBins } from './install.js';
import { startKannel } from './kannel-side.js';
import { runOnce, type RunFigures, type Starter } from './measure.js';
import { MESSAGE_KINDS } from './messages.js';
import { usageChecked } from '../options.js';
import { parseKannelOptions, type ContenderName, type KannelBenchOptions } from './options.js';
import { report, writeResults } from './report.js';
import { startWirebird } from './wirebird-side.js';

function starters(o: KannelBenchOptions, bins: KannelBins | undefined) {
  const s: Partial<Record<ContenderName, Starter>> = {
    wirebird: startWirebird,
    ceiling: startCeiling,
  };
  if (bins) {
    s.kannel = (r) => twice(() => startKannel(r, bins, 1));
    s['kannel-multi'] = (r) => twice(() => startKannel(r, bins, o.perRequest));
  }
  return s;
}

/** Kannel now and then fails to start on a busy machine; one more try before the run fails. */
async function twice<T>(start: () => Promise<T>): Promise<T> {
  try {
    return await start();
  } catch (err) {
    console.log(`  ${(err as Error).message}; starting it again`);
    return start();
  }
}

function summary(f: RunFigures): string {
  const n = (x: number) => (Number.isFinite(x) ? Math.round(x).toLocaleString('en-US') : '–');
  return (
    `${f.contender} ${f.kind} w${f.window}: accepted ${n(f.acceptedPerS)}/s, end to end ` +
    `${n(f.endToEndPerS)}/s, receipts ${n(f.receiptsPerS)}/s, CPU ${f.cpuPer10kS.toFixed(2)} s/10k` +
    (f.complete ? '' : ' INCOMPLETE')
  );
}

/** Every kind and window; within one, the contenders take turns run after run. */
async function runAll(o: KannelBenchOptions, start: Partial<Record<ContenderName, Starter>>) {
  const all: RunFigures[] = [];
  for (const kind of o.kinds) {
    for (const window of o.windows) {
      for (let run = 1; run <= o.runs; run++) {
        for (const name of o.contenders) {
          const s = start[name];
          if (!s) continue;
          console.error(`run ${run}/${o.runs}: ${name}, ${kind}, window ${window}…`);
          const f = await runOnce(o, name, s, MESSAGE_KINDS[kind], window);
          console.error(`  ${summary(f)}`);
          all.push(f);
        }
      }
    }
  }
  return all;
}

function commandLine(): string {
  const args = process.argv.slice(2).join(' ');
  return `npm run bench:kannel${args ? ` -- ${args}` : ''}`;
}

async function main(): Promise<void> {
  const o = usageChecked(() => parseKannelOptions(process.argv.slice(2)));
  if (!o) return;
  stopAllOnExit();
  const wantsKannel = o.contenders.some((c) => c.startsWith('kannel'));
  const found = wantsKannel ? findKannel(o.kannelBin) : undefined;
  const bins = typeof found === 'object' ? found : undefined;
  if (typeof found === 'string') console.error(`skipping Kannel: ${found}`);
  const all = await runAll(o, starters(o, bins));
  const head = [
    `\`${commandLine()}\``,
    '',
    describeMachine(),
    `- ${bins ? bins.version : 'Kannel: not run'}`,
  ];
  if (typeof found === 'string') head.push(`- Kannel skipped: ${found}`);
  const profiles = all
    .filter((f) => f.profile)
    .map((f) => `#### Wirebird profile (${f.kind}, window ${f.window})\n\n${f.profile}`);
  const section = [
    '## Side by side with Kannel (issue 8)',
    '',
    ...head,
    '',
    report(all, o.perRequest),
    '',
    ...profiles,
  ].join('\n');
  console.log(section);
  const dir = join(process.cwd(), 'bench', 'out');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `kannel-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify({ command: commandLine(), options: o, runs: all }, null, 2));
  console.error(`figures written to ${file}`);
  if (o.write) writeResults(join(process.cwd(), 'bench', 'RESULTS.md'), section);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
