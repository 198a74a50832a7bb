import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { Store } from '../domain/ports.js';
import { openPostgresStore } from './postgres/postgres-store.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';

/** The store the configuration names: PostgreSQL with a database url, SQLite otherwise. */
export async function openStore(
  config: Pick<Config, 'dataDir' | 'sqliteSynchronous' | 'database'>,
): Promise<Store> {
  const { url, poolSize } = config.database;
  if (!url) {
    return openSqliteStore({
      path: join(config.dataDir, 'wirebird.db'),
      synchronous: config.sqliteSynchronous,
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
