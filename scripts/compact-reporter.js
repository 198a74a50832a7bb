// A compact report for `npm test`: a dot per 100 passing tests, what tests print, every failure in full, skipped tests
// with their reason, each file's duration (the ten slowest first), and one closing line
// `<label>: N passed, N failed, N skipped`, after a recap of each failure's name and first line (a CI log
// shown only by its tail still says what failed).
// node's runner loads it with --test-reporter; WIREBIRD_TEST_REPORTER=tap (or spec) is the raw one.
import { readFileSync, writeFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { inspect } from 'node:util';
import { BARRIER, ENTRY_PREFIX } from './test-worker.js';

const label = process.env.WIREBIRD_TEST_LABEL || 'tests';

function where(data) {
  const file = data.file ? data.file.replace(process.cwd() + '/', '') : '';
  return file ? `${file} › ${data.name}` : data.name;
}

function failure(data) {
  const err = data.details?.error;
  const cause = err?.cause ?? err;
  const lines = [`✖ ${where(data)}`];
  if (cause instanceof Error) lines.push(cause.stack ?? cause.message);
  else lines.push(inspect(cause, { depth: 4 }));
  if (cause && typeof cause === 'object' && 'expected' in cause) {
    lines.push(`expected: ${inspect(cause.expected, { depth: 4 })}`);
    lines.push(`actual:   ${inspect(cause.actual, { depth: 4 })}`);
  }
  return lines.join('\n').replace(/^/gm, '  ') + '\n\n';
}

/** One line per failure for the closing recap: where, and the error's first line. */
function recapLine(data) {
  const err = data.details?.error;
  const cause = err?.cause ?? err;
  const first = String(cause instanceof Error ? cause.message : inspect(cause)).split('\n')[0];
  return `  ✖ ${where(data)}: ${first.slice(0, 200)}`;
}

/** The source file a compiled test file was built from: dist/test/a.test.js → test/a.test.ts. */
const sourceOf = (file) =>
  file
    .replace(process.cwd() + '/', '')
    .replace(/^dist\//, '')
    .replace(/\.js$/, '.ts');

/**
 * Each file's duration: its top-level tests and suites (with their hooks, so a gateway's start),
 * module loading aside. Node 20's runner reports no event per file, so they are added up here.
 */
function durationLines(durations) {
  const rows = [...durations].sort((a, b) => b[1] - a[1]);
  const line = ([file, ms]) => `${(ms / 1000).toFixed(1).padStart(7)} s  ${sourceOf(file)}`;
  const rest = rows.length > 10 ? [`${label}: every other file`, ...rows.slice(10).map(line)] : [];
  return [`\n${label}: the ten slowest files`, ...rows.slice(0, 10).map(line), ...rest].join('\n');
}

/** A worker's own entry (scripts/run-tests.js): its time is its files' time, counted by file. */
const isWorkerEntry = (file) => basename(file ?? '').startsWith(ENTRY_PREFIX);

/** Each file's duration for the runner's next order, kept per pass (run-tests.js reads them). */
function saveDurations(durations) {
  const path = process.env.WIREBIRD_TEST_DURATIONS;
  if (!path) return;
  let all = {};
  try {
    all = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    // The first run.
  }
  const pass = (all[label] ??= {});
  for (const [file, ms] of durations) pass[relative(process.cwd(), file)] = Math.round(ms);
  writeFileSync(path, JSON.stringify(all, null, 1));
}

export default async function* compact(source) {
  const counts = { passed: 0, failed: 0, skipped: 0 };
  const durations = new Map();
  const recap = [];
  let dots = 0;
  for await (const event of source) {
    const { type, data } = event;
    if (data?.name === BARRIER && type !== 'test:fail') continue;
    if (
      (type === 'test:pass' || type === 'test:fail') &&
      data.nesting === 0 &&
      data.file &&
      !isWorkerEntry(data.file)
    ) {
      durations.set(data.file, (durations.get(data.file) ?? 0) + (data.details?.duration_ms ?? 0));
    }
    // Suites (describe) pass or fail through their tests: only tests are counted.
    const isSuite = data?.details?.type === 'suite';
    if (type === 'test:pass' && !isSuite) {
      if (data.skip !== undefined || data.todo !== undefined) {
        counts.skipped++;
        yield `\n- skipped: ${where(data)}${typeof data.skip === 'string' ? ` (${data.skip})` : ''}\n`;
      } else {
        counts.passed++;
        if (++dots % 100 === 0) yield '.';
      }
    } else if (type === 'test:fail' && !isSuite) {
      counts.failed++;
      recap.push(recapLine(data));
      yield `\n${failure(data)}`;
    } else if (
      type === 'test:fail' &&
      isSuite &&
      data.details?.error?.failureType !== 'subtestsFailed'
    ) {
      // A suite that failed by itself (its before hook threw): its tests never ran.
      counts.failed++;
      recap.push(recapLine(data));
      yield `\n${failure(data)}`;
    } else if (type === 'test:stderr' || type === 'test:stdout') {
      // What a test prints on purpose (a crash test's duplicate count, a skipped tool's reason).
      yield data.message;
    }
  }
  if (durations.size > 0) yield `${durationLines(durations)}\n`;
  saveDurations(durations);
  if (recap.length > 0) yield `\n${label}: what failed\n${recap.join('\n')}\n`;
  yield `\n${label}: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped\n`;
}
