/**
 * The README, docs/ and the source name only documents that are in the repository (issue 35:
 * the README and the store contract pointed at a design document that was not).
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, it } from 'node:test';

const ROOT = resolve(import.meta.dirname, '..', '..');

function filesUnder(dir: string, ends: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path, ends);
    return name.endsWith(ends) ? [path] : [];
  });
}

/** Where a named document may be: beside the file, at the root, or in docs/. */
function found(from: string, name: string): boolean {
  return [dirname(from), ROOT, join(ROOT, 'docs')].some((dir) => existsSync(join(dir, name)));
}

describe('documents named in the repository', () => {
  const texts = [
    join(ROOT, 'README.md'),
    ...filesUnder(join(ROOT, 'docs'), '.md'),
    ...filesUnder(join(ROOT, 'src'), '.ts'),
  ];

  it('every relative Markdown link of the README and docs/ leads to a file', () => {
    const broken: string[] = [];
    for (const file of texts.filter((f) => f.endsWith('.md'))) {
      for (const [, target] of readFileSync(file, 'utf8').matchAll(
        /\]\(([^)#\s]+)(?:#[^)]*)?\)/g,
      )) {
        if (target === undefined || /^[a-z]+:/i.test(target)) continue;
        if (!existsSync(resolve(dirname(file), target))) broken.push(`${file}: ${target}`);
      }
    }
    assert.deepEqual(broken, []);
  });

  it('every document named by its file name (NAME.md) is in the repository', () => {
    const missing: string[] = [];
    for (const file of texts) {
      for (const [name] of readFileSync(file, 'utf8').matchAll(/(?<![\w./-])[\w./-]*\.md\b/g)) {
        if (!found(file, name.replace(/^\.\//, ''))) missing.push(`${file}: ${name}`);
      }
    }
    assert.deepEqual(missing, []);
  });

  it('docs/architecture.md lists every top-level room of src/', () => {
    const text = readFileSync(join(ROOT, 'docs', 'architecture.md'), 'utf8');
    const rooms = readdirSync(join(ROOT, 'src')).filter((n) =>
      statSync(join(ROOT, 'src', n)).isDirectory(),
    );
    const unlisted = rooms.filter((room) => !text.includes(`| \`${room}/\``));
    assert.deepEqual(unlisted, [], 'add a row for each to the table of rooms');
  });
});
