// Runs every compiled *.test.js under dist/ with node's test runner. Node 20's runner does not
// expand globs, so the files are listed here; the runner's exit code is passed through.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function findTests(dir) {
  const found = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (name.endsWith('.test.js')) found.push(path);
  }
  return found;
}

const roots = ['dist/src', 'dist/test'];
const filter = process.argv[2];
const files = roots
  .flatMap(findTests)
  .filter((f) => !filter || f.includes(filter))
  .sort();
if (files.length === 0) {
  console.error('run-tests: no test files found under dist/ (did the build run?)');
  process.exit(1);
}
if (!process.env.WIREBIRD_TEST_DATABASE_URL) {
  console.log('NOTICE: WIREBIRD_TEST_DATABASE_URL is not set; PostgreSQL tests are skipped.');
}
const result = spawnSync(
  process.execPath,
  ['--enable-source-maps', '--test', '--test-concurrency=2', ...files],
  { stdio: 'inherit' },
);
process.exit(result.status ?? 1);
