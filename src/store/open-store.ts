import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { Store } from '../domain/ports.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { WriteLock } from './sqlite/write-lock.js';

/** The SQLite file of a store configured without a database url. */
export function sqlitePath(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'wirebird.db');
}

/**
 * The store the configuration names: PostgreSQL with a database url, SQLite otherwise. A write
 * lock (SQLite only) is shared with the threads that write to the same file.
 */
export async function openStore(
  config: Pick<Config, 'dataDir' | 'sqliteSynchronous' | 'database'>,
  writeLock?: WriteLock,
): Promise<Store> {
  const { url, poolSize } = config.database;
  if (!url) {
    return openSqliteStore({
      path: sqlitePath(config),
      synchronous: config.sqliteSynchronous,
      writeLock,
    });
  }
  return openPostgresStore({ url, poolSize }).catch((err: unknown) => {
    throw new Error(`cannot open the PostgreSQL store at ${redacted(url)}: ${messageOf(err)}`);
  });
}

/** The url as it may be shown: the password replaced, so it never reaches a log or a terminal. */
export function redacted(url: string): string {
  const u = new URL(url);
  if (u.password) u.password = '*****';
  return u.toString();
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
