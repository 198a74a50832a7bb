import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { TestGateway } from './gateway.js';

export const CLI = join(import.meta.dirname, '..', '..', 'src', 'cli', 'main.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI against a gateway with the dev account's key in the environment. */
export function runCli(
  gw: TestGateway,
  args: readonly string[],
): CliRun & { done: Promise<CliRun>; child: ChildProcess } {
  const child = spawn(process.execPath, [CLI, ...args], {
    env: {
      ...process.env,
      WIREBIRD_URL: gw.url,
      WIREBIRD_API_KEY: gw.key,
      WIREBIRD_ACCOUNT_ID: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = { code: null as number | null, stdout: '', stderr: '' };
  child.stdout.on('data', (d: Buffer) => (run.stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (run.stderr += d.toString()));
  // A CLI that hangs fails its test (killed, code null) instead of hanging the suite.
  const limit = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const done = new Promise<CliRun>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(limit);
      run.code = code;
      resolve(run);
    }),
  );
  return Object.assign(run, { done, child });
}

export function cli(gw: TestGateway, args: readonly string[]): Promise<CliRun> {
  return runCli(gw, args).done;
}

/**
 * Runs a store command of the CLI (accounts, opt-outs, webhooks…) on the SQLite data folder
 * `dataDir`, never a database a developer's environment names.
 */
export function runStoreCli(
  dataDir: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CliRun> {
  return new Promise<CliRun>((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      env: { ...process.env, WIREBIRD_DATA_DIR: dataDir, DATABASE_URL: '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out = { code: null as number | null, stdout: '', stderr: '' };
    child.stdout.on('data', (d: Buffer) => (out.stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out.stderr += d.toString()));
    const limit = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(limit);
      resolve({ ...out, code });
    });
  });
}
