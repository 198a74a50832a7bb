import type { Config } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';
import { CliError } from './cli-error.js';
import { WirebirdError } from '../domain/errors.js';
import type { AuditFact } from '../core/audit.js';
import type { Store } from '../domain/ports.js';

/**
 * Opens the store the gateway's config names, runs `use`, and closes it. The config's schema and
 * the store's drivers are loaded here, not when the CLI starts: half a second of every command,
 * `--help` included, went to them.
 */
export async function withStore<T>(
  configFile: string | undefined,
  use: (store: Store, config: Config) => Promise<T>,
): Promise<T> {
  const { loadConfig } = await import('../config/config.js');
  const { openStore } = await import('../store/open-store.js');
  const config = loadConfig(process.env, configFile ?? process.env.WIREBIRD_CONFIG);
  const store = await openStore(config);
  try {
    return await use(store, config);
  } finally {
    await store.close();
  }
}

/** `--account <AccountId>`: a whole number ≥ 1, refused naming the flag otherwise. */
export function accountOption(raw: string): number {
  const accountId = Number(raw);
  if (!/^\d{1,15}$/.test(raw.trim()) || !Number.isSafeInteger(accountId) || accountId < 1) {
    throw new WirebirdError('InvalidParameter', '--account must be a positive integer');
  }
  return accountId;
}

/** CLI commands print what went wrong in one line and exit 1, never a stack trace. */
export function failOnError(err: unknown): never {
  const message =
    err instanceof WirebirdError || err instanceof ConfigError || err instanceof CliError
      ? err.message
      : String(err);
  console.error(`wirebird: ${message}`);
  process.exit(1);
}

/** Records a change made with the CLI (actor `cli`) in the audit log. */
export async function cliAudit(store: Store, fact: AuditFact): Promise<void> {
  const { audit } = await import('../core/audit.js');
  await audit({ store, clock: { now: () => Date.now() } }, { actor: 'cli' }, fact);
}
