/**
 * Secrets kept in the data folder, readable by their owner only. A module of its own, apart from
 * first-start.ts, so that the CLI's commands that need the gateway secret load nothing else.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Config } from '../config/config.js';

export function writeSecret(file: string, content: string): void {
  // With PostgreSQL nothing else creates the data folder.
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, content, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/**
 * The gateway secret: WIREBIRD_SECRET, else the one kept in <dataDir>/gateway.secret, else a new
 * one. Secrets sealed under it (UCloud private keys) cannot be opened without it: back it up.
 */
export function resolveGatewaySecret(config: Config): string {
  if (config.secret) return config.secret;
  const file = join(config.dataDir, 'gateway.secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  const secret = randomBytes(32).toString('base64url');
  writeSecret(file, `${secret}\n`);
  return secret;
}
