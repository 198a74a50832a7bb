import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';

export interface GatewayOptions {
  main: string;
  dataDir: string;
  /** Passed to node before the script, e.g. --cpu-prof. */
  nodeArgs?: string[];
  synchronous?: 'FULL' | 'NORMAL';
  /** Written as the gateway's config file (WIREBIRD_CONFIG); the environment still wins. */
  config?: Record<string, unknown>;
  /** The data dir whose key files to use: a node sharing another node's database has none. */
  keysFrom?: string;
}

export interface Gateway {
  pid: number;
  origin: string;
  dataDir: string;
  accountId: number;
  apiKey: string;
  adminKey: string;
  /** SIGTERM, then SIGKILL by pid if it has not exited within the grace period. */
  stop(graceMs?: number): Promise<number | null>;
}

export function freshDataDir(workDir: string, label: string): string {
  mkdirSync(workDir, { recursive: true });
  return mkdtempSync(join(workDir, `${label}-`));
}

/** A port the kernel just handed out on 127.0.0.1, so two runs never collide. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function gatewayEnv(o: GatewayOptions, port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('WIREBIRD_')) env[k] = v;
  return {
    ...env,
    PORT: String(port),
    HOST: '127.0.0.1',
    WIREBIRD_DATA_DIR: o.dataDir,
    WIREBIRD_SIM_DELAY_MS: '0',
    WIREBIRD_LOG_LEVEL: 'warn',
    // The bench approves its template through the admin API, as an operator would.
    WIREBIRD_TEMPLATE_REVIEW: 'manual',
    ...(o.synchronous ? { WIREBIRD_SQLITE_SYNCHRONOUS: o.synchronous } : {}),
    ...(o.config ? { WIREBIRD_CONFIG: writeConfig(o.dataDir, o.config) } : {}),
  };
}

function writeConfig(dataDir: string, config: Record<string, unknown>): string {
  const file = join(dataDir, 'bench-config.json');
  writeFileSync(file, JSON.stringify(config));
  return file;
}

async function waitHealthy(origin: string, child: ChildProcess, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`gateway exited with ${child.exitCode}`);
    try {
      const res = await request(`${origin}/healthz`);
      await res.body.dump();
      if (res.statusCode === 200) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`gateway not healthy within ${limitMs} ms`);
}

/** Whether `child` has exited, or does within `ms`. */
export function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

function readKeys(dataDir: string): Pick<Gateway, 'accountId' | 'apiKey' | 'adminKey'> {
  const dev = readFileSync(join(dataDir, 'dev-account.key'), 'utf8').trim();
  const i = dev.indexOf(':');
  return {
    accountId: Number(dev.slice(0, i)),
    apiKey: dev.slice(i + 1),
    adminKey: readFileSync(join(dataDir, 'admin.key'), 'utf8').trim(),
  };
}

/**
 * The node flags `npm start` gives the gateway (package.json next to the build), so that the bench
 * measures it as shipped; none when there is no such script.
 */
export function startScriptNodeArgs(main: string): string[] {
  try {
    const pkg = JSON.parse(readFileSync(join(dirname(main), '../../../package.json'), 'utf8')) as {
      scripts?: { start?: string };
    };
    const flags = /\bnode((?:\s+--\S+)*)\s+\S*main\.js serve/.exec(pkg.scripts?.start ?? '');
    return (flags?.[1] ?? '').split(/\s+/).filter(Boolean);
  } catch {
    return [];
  }
}

/** Starts `node <main> serve` as a child, so its RSS and CPU are its own, and waits for /healthz. */
export async function startGateway(o: GatewayOptions): Promise<Gateway> {
  const port = await freePort();
  const log = openSync(join(o.dataDir, 'gateway.log'), 'a');
  // Flags given to the bench come after npm start's, so they win (V8 takes the last of a flag).
  const nodeArgs = [...startScriptNodeArgs(o.main), ...(o.nodeArgs ?? [])];
  const child = spawn(process.execPath, [...nodeArgs, o.main, 'serve'], {
    env: gatewayEnv(o, port),
    stdio: ['ignore', log, log],
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error('gateway did not start');
  const origin = `http://127.0.0.1:${port}`;
  try {
    await waitHealthy(origin, child, 30_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    pid,
    origin,
    dataDir: o.dataDir,
    ...readKeys(o.keysFrom ?? o.dataDir),
    async stop(graceMs = 30_000) {
      if (child.exitCode === null && child.signalCode === null) process.kill(pid, 'SIGTERM');
      if (!(await exited(child, graceMs))) {
        process.kill(pid, 'SIGKILL');
        await exited(child, 5_000);
      }
      return child.exitCode;
    },
  };
}

/** Warnings and errors the gateway logged (it runs at level warn), for the report. */
export function gatewayLogLines(dataDir: string): string[] {
  try {
    return readFileSync(join(dataDir, 'gateway.log'), 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'));
  } catch {
    return [];
  }
}
