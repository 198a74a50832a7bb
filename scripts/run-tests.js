// Runs every compiled *.test.js under dist/ with node's test runner. Node 20's runner does not
// expand globs, so the files are listed here; the runner's exit code is passed through.
// With WIREBIRD_TEST_DATABASE_URL set, the PostgreSQL tests run too (store contract, cluster),
// and a second pass runs the end-to-end tests of test/ on PostgreSQL (WIREBIRD_TEST_STORE).
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { spawnSync } from 'node:child_process';
import { ENTRY_PREFIX } from './test-worker.js';

function findTests(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (name.endsWith('.test.js')) found.push(path);
  }
  return found;
}

// Compact by default (scripts/compact-reporter.js); WIREBIRD_TEST_REPORTER=tap or spec for the
// runner's own full output.
const REPORTER =
  process.env.WIREBIRD_TEST_REPORTER || join(import.meta.dirname, 'compact-reporter.js');

// Each file's duration in the last run (written by the reporter): the slowest start first, so that
// the workers end together; new files count as slow. A fresh clone has no last run: it takes the
// durations committed in scripts/test-durations.json (a copy of a run's file; only the order
// depends on it, 5 s of the SQLite pass: refresh it when the slowest files change).
const DURATIONS = resolve('dist/.test-durations.json');
const SEED = join(import.meta.dirname, 'test-durations.json');

function slowestFirst(files, label) {
  let last = {};
  for (const path of [DURATIONS, SEED]) {
    try {
      const all = JSON.parse(readFileSync(path, 'utf8'));
      last = { ...all.unit, ...all.tests, ...all[label] };
      break;
    } catch {
      // Not there: the next, else every file is new.
    }
  }
  // The reporter names a file by its source (test/a.test.ts): the runner has its build (dist/…js).
  const source = (f) =>
    relative(process.cwd(), f)
      .replace(/^dist\//, '')
      .replace(/\.js$/, '.ts');
  const weight = (f) => last[source(f)] ?? Infinity;
  return [...files].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
}

// A worker per core and one more: much of a test waits (a receipt, a spawned gateway, a timeout),
// and a third worker fills those waits on two cores (149 s for the SQLite pass here, against 170
// with two and 150 with four). WIREBIRD_TEST_WORKERS=n chooses.
const WORKERS = Number(process.env.WIREBIRD_TEST_WORKERS) || availableParallelism() + 1;

/** The worker entries of one pass, in a folder of its own with the list and the claims. */
function workerEntries(files, label) {
  const dir = mkdtempSync(join(tmpdir(), 'wirebird-tests-'));
  writeFileSync(
    join(dir, 'files.json'),
    JSON.stringify(slowestFirst(files, label).map((f) => resolve(f))),
  );
  const worker = pathToFileURL(join(import.meta.dirname, 'test-worker.js')).href;
  const count = Math.min(WORKERS, files.length);
  const entries = Array.from({ length: count }, (_, n) => {
    const entry = join(dir, `${ENTRY_PREFIX}${n + 1}.mjs`);
    writeFileSync(
      entry,
      `import { work } from '${worker}';\nawait work(${JSON.stringify(dir)});\n`,
    );
    return entry;
  });
  return { dir, entries };
}

function run(files, env, label) {
  const { dir, entries } = workerEntries(files, label);
  const result = spawnSync(
    process.execPath,
    [
      '--enable-source-maps',
      '--test',
      `--test-concurrency=${entries.length}`,
      `--test-reporter=${REPORTER}`,
      '--test-reporter-destination=stdout',
      ...entries,
    ],
    {
      stdio: 'inherit',
      env: { ...env, WIREBIRD_TEST_LABEL: label, WIREBIRD_TEST_DURATIONS: DURATIONS },
    },
  );
  rmSync(dir, { recursive: true, force: true });
  return result.status ?? 1;
}

// `--unit` (npm run test:unit): the tests beside the code in src/ (domain rules, codecs, the
// workers with fakes, the SQLite store contract), no end-to-end gateway: the fast tier.
const unit = process.argv[2] === '--unit';
const roots = unit ? ['dist/src'] : ['dist/src', 'dist/test'];
const filter = unit ? process.argv[3] : process.argv[2];
const files = roots
  .flatMap(findTests)
  .filter((f) => !filter || f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error('run-tests: no test files found under dist/ (did the build run?)');
  process.exit(1);
}
const databaseUrl = process.env.WIREBIRD_TEST_DATABASE_URL;
if (!databaseUrl) {
  console.log('NOTICE: WIREBIRD_TEST_DATABASE_URL is not set; PostgreSQL tests are skipped.');
}
/** Whether a compiled test file reaches `target` (a file of dist/test) through its imports. */
function reaches(file, target, seen = new Set()) {
  if (file === target) return true;
  // src/ never imports from test/, so the search stays within dist/test.
  if (seen.has(file) || !file.startsWith(dirname(dirname(target)))) return false;
  seen.add(file);
  const source = readFileSync(file, 'utf8');
  for (const [, spec] of source.matchAll(
    /(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+\.js)['"]/g,
  )) {
    if (reaches(resolve(dirname(file), spec), target, seen)) return true;
  }
  return false;
}

const storeChosen = resolve('dist/test/helpers/gateway.js');
// Were the helper moved, no file would reach it and the pass would pass by running nothing.
if (
  databaseUrl &&
  files.some((f) => f.startsWith(join('dist', 'test'))) &&
  !existsSync(storeChosen)
) {
  console.error(`run-tests: ${storeChosen} is gone; say here which helper chooses the store`);
  process.exit(1);
}
const status = run(files, process.env, unit ? 'unit' : 'tests');
// The second pass runs the end-to-end tests whose gateways take their store from
// WIREBIRD_TEST_STORE (test/helpers/gateway.ts): the others would run the same again. Gateways in
// their own processes (kill -9, cluster) choose their store themselves; the OpenAPI document and
// the page that shows it do not depend on the store, nor does what `wirebird send` reads and
// resumes (the acceptance it drives is the same Action the other tests run on PostgreSQL).
const notAgain =
  /restart-safety|crash-receipts|cluster|postgres-start|shutdown|openapi|docs-browser|cli-send/;
const onPostgres = files.filter(
  (f) =>
    f.startsWith(join('dist', 'test')) && !notAgain.test(f) && reaches(resolve(f), storeChosen),
);
if (unit || !databaseUrl || onPostgres.length === 0 || process.env.WIREBIRD_TEST_STORE) {
  process.exit(status);
}
console.log('== the end-to-end tests again, on PostgreSQL (WIREBIRD_TEST_STORE=postgres)');
const again = run(onPostgres, { ...process.env, WIREBIRD_TEST_STORE: 'postgres' }, 'postgres');
process.exit(status || again);
