// Builds (npm run build) unless the last build is of these very sources: `npm start`, `npm run
// wirebird`, `npm test` and the benches start with it, so only the first start after a change
// pays for tsc (a minute on a fresh clone, half of one for tsc to find nothing changed).
// The sources' fingerprint (every input file's path, size and modification time) is written to
// dist/.build-stamp after a build that succeeded; a different one, or no stamp, builds again.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

const ROOTS = ['src', 'test', 'bench', 'tools', 'packages/client/src'];
const FILES = ['tsconfig.json', 'packages/client/tsconfig.json', 'package-lock.json'];
const STAMP = 'dist/.build-stamp';
// What the build must have left behind for the stamp to stand.
const OUTPUTS = ['dist/src/cli/main.js', 'packages/client/dist/index.js'];

function walk(dir, out) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) walk(path, out);
    else if (entry.name.endsWith('.ts') || entry.name.endsWith('.json')) out.push(path);
  }
}

function fingerprint() {
  const files = [...FILES];
  for (const root of ROOTS) walk(root, files);
  const hash = createHash('sha256');
  for (const path of files.sort()) {
    const s = statSync(path, { throwIfNoEntry: false });
    if (s) hash.update(`${path}\0${s.size}\0${s.mtimeMs}\n`);
  }
  return hash.digest('hex');
}

const now = fingerprint();
const built = existsSync(STAMP) ? readFileSync(STAMP, 'utf8') : '';
if (built === now && OUTPUTS.every((p) => existsSync(p))) process.exit(0);
const run = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);
writeFileSync(STAMP, now);
