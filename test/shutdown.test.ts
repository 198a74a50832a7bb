import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { freePort } from './helpers/process-gateway.js';

const CLI = join(import.meta.dirname, '..', 'src', 'cli', 'main.js');

test('the start banner shows the console and a first call; SIGTERM is logged step by step', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wirebird-stop-'));
  const port = await freePort();
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      PORT: String(port),
      WIREBIRD_DATA_DIR: dataDir,
      WIREBIRD_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString('utf8')));
  try {
    for (let i = 0; i < 200; i++) {
      const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    const messages = out
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    const order = [
      'SIGTERM received: stopping',
      'shutting down: refusing new connections, answering the requests in hand',
      'HTTP server closed',
      'dispatcher stopping: finishing the messages in hand',
      'dispatcher stopped',
      'stopped',
    ];
    const at = order.map((m) => messages.indexOf(m));
    assert.ok(
      at.every((i) => i >= 0),
      `missing: ${order.filter((_, k) => (at[k] as number) < 0).join('; ')}`,
    );
    assert.deepEqual(
      [...at].sort((a, b) => a - b),
      at,
      'logged in the order of the stop',
    );
  } finally {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a SIGTERM that comes while the gateway starts stops it gracefully once started', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'wirebird-stop-'));
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: {
      ...process.env,
      PORT: String(await freePort()),
      WIREBIRD_DATA_DIR: dataDir,
      WIREBIRD_LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
  const exited = new Promise<[number | null, string | null]>((r) =>
    child.once('exit', (code, signal) => r([code, signal])),
  );
  try {
    // The HTTP port answers before the start is over: the signal comes in between.
    await new Promise<void>((resolve) =>
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString('utf8');
        if (out.includes('Server listening at')) resolve();
      }),
    );
    child.kill('SIGTERM');
    assert.deepEqual(await exited, [0, null], `stderr: ${err}`);
    assert.match(out, /"msg":"stopped"/);
  } finally {
    child.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});
