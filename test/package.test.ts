/**
 * The npm package as a user installs it (issue 35, item 21): `npm pack` of this checkout,
 * `npm install -g` of the tarball into a prefix of its own, then the installed `wirebird`: its
 * help, `serve` with its data directory, a batch sent and its receipt read, the console's assets
 * and the reference page served from inside the package.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
// Not through helpers/gateway.js: run-tests.js would run this file again on PostgreSQL.
import { eventually } from './helpers/eventually.js';
import { approvedTemplate, batch, call, receipts } from './helpers/process-api.js';
import { freePort, kill, waitForHealth, type GatewayProcess } from './helpers/process-gateway.js';

const run = promisify(execFile);
const ROOT = resolve(import.meta.dirname, '..', '..');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
/** Every npm call bounded: a registry that does not answer fails the test, not the suite. */
const NPM = { cwd: ROOT, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 };

describe('the npm package, installed as a user would', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wirebird-package-'));
  let gateway: GatewayProcess | undefined;
  after(async () => {
    if (gateway) await kill(gateway.child, 'SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it('packs, installs into a prefix, serves, sends a batch and reads its receipt', async () => {
    // The suite's build is what is packed: prepack (a build) is not run again.
    await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], NPM);
    const tarball = join(dir, `wirebird-${VERSION}.tgz`);
    assert.ok(existsSync(tarball), 'npm pack wrote the tarball');
    const prefix = join(dir, 'prefix');
    // better-sqlite3 compiles SQLite for a minute on install (--ignore-scripts skips it): its
    // module is taken from this checkout's build instead (the same version, for the same Node).
    const install = ['install', '-g', '--prefix', prefix, tarball, '--ignore-scripts'];
    const installing = await run(
      'npm',
      [...install, '--prefer-offline', '--no-audit', '--no-fund'],
      NPM,
    );
    // npm applies `overrides` only to the project it installs in: a dependency that asks for a
    // newer Node than 20 shows here, not in `npm ci`.
    assert.doesNotMatch(installing.stderr, /EBADENGINE/, 'every dependency supports this Node');
    const installed = join(prefix, 'lib', 'node_modules', 'wirebird');
    const release = join('node_modules', 'better-sqlite3', 'build', 'Release');
    mkdirSync(join(installed, release), { recursive: true });
    copyFileSync(
      join(ROOT, release, 'better_sqlite3.node'),
      join(installed, release, 'better_sqlite3.node'),
    );
    const bin = join(prefix, 'bin', 'wirebird');
    const help = await run(bin, ['--help'], { timeout: 30_000 });
    assert.match(help.stdout, /^Usage: wirebird /);
    assert.match(help.stdout, /serve/);

    // Served from a folder of its own; the data where --data-dir says, nothing in the folder.
    const work = join(dir, 'work');
    const data = join(dir, 'elsewhere');
    mkdirSync(work);
    const port = await freePort();
    const child = spawn(bin, ['serve', '--data-dir', data], {
      cwd: work,
      env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', WIREBIRD_LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, child);
    const key = readFileSync(join(data, 'dev-account.key'), 'utf8').trim().split(':')[1] ?? '';
    const adminKey = readFileSync(join(data, 'admin.key'), 'utf8').trim();
    gateway = { child, url, key, adminKey };
    assert.ok(existsSync(join(data, 'wirebird.db')), 'migrated into the data directory');
    assert.ok(!existsSync(join(work, 'data')), 'nothing written in the working folder');

    const template = await approvedTemplate(gateway);
    const sent = await call(gateway, batch(template, 1, 2));
    assert.equal(sent.RetCode, 0, String(sent.Message));
    const session = String(sent.SessionNo);
    const final = await eventually(async () => {
      const set = (await receipts(gateway as GatewayProcess, [session])).get(session) ?? [];
      return set.length === 2 && set.every((r) => r.ReceiptResult !== '') ? set : undefined;
    }, 'the receipts of the batch');
    assert.deepEqual(
      final.map((r) => r.ReceiptResult),
      ['Success', 'Success'],
    );
    for (const path of [
      '/console/login',
      '/console/assets/app.css',
      '/docs/',
      '/api/openapi.json',
    ]) {
      assert.equal((await fetch(`${url}${path}`)).status, 200, path);
    }
  });
});
