import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

/** A gateway in its own process, so a test can kill it with SIGKILL like a crash would. */
export interface GatewayProcess {
  child: ChildProcess;
  url: string;
  key: string;
  adminKey: string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.js');

/**
 * Starts `wirebird serve` with `config` as its config file. The keys are read from the data
 * folder unless the config names them (as nodes sharing one database do); `env` adds to the
 * environment (DATABASE_URL, say).
 */
export async function spawnGateway(
  dataDir: string,
  port: number,
  config: object,
  env: Record<string, string> = {},
): Promise<GatewayProcess> {
  const configFile = join(dataDir, 'config.json');
  writeFileSync(configFile, JSON.stringify(config));
  const child = spawn(process.execPath, [CLI, 'serve', '--config', configFile], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      WIREBIRD_DATA_DIR: dataDir,
      WIREBIRD_LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  // A gateway that never became healthy is not left running behind the test.
  await waitForHealth(url, child).catch(async (err: unknown) => {
    await kill(child, 'SIGKILL');
    throw err;
  });
  const named = config as { apiKeys?: { key: string }[]; adminKey?: string };
  const key =
    named.apiKeys?.[0]?.key ??
    readFileSync(join(dataDir, 'dev-account.key'), 'utf8').trim().split(':')[1] ??
    '';
  const adminKey = named.adminKey ?? readFileSync(join(dataDir, 'admin.key'), 'utf8').trim();
  return { child, url, key, adminKey };
}

export async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  // Up to 30 s: a gateway starting beside a full test run on two cores has taken over 15.
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('gateway did not become healthy');
}

export async function kill(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}
