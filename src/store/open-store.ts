import { join } from 'node:path';
import type { Config } from '../config/config.js';
import type { Store, StoreShare } from '../domain/ports.js';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import { WriteLock } from './sqlite/write-lock.js';

/** The SQLite file of a store configured without a database url. */
export function sqlitePath(config: Pick<Config, 'dataDir'>): string {
  return join(config.dataDir, 'wirebird.db');
}

type StoreConfig = Pick<
  Config,
  'dataDir' | 'sqliteSynchronous' | 'sqliteBusyTimeoutMs' | 'database'
>;

/** A share for a process that writes to its store from threads (acceptance, the outbox). */
export function storeShare(config: StoreConfig): StoreShare {
  return { lockBuffer: config.database.url ? undefined : new WriteLock().buffer };
}

/**
 * Frees what a thread that ended held of the share: a thread killed inside a SQLite write would
 * otherwise keep every other connection waiting on the write lock. True when it held it.
 */
export function releaseShareOf(share: StoreShare, deadThreadId: number): boolean {
  return share.lockBuffer ? new WriteLock(share.lockBuffer).releaseIfHeldBy(deadThreadId) : false;
}

/**
 * The page cache of a thread's connection (acceptance, the outbox): they append rows and read
 * the newest ones, which touches only the right edges of the indexes; the main connection, which
 * claims, records and reports across the table, keeps the default 16 MiB.
 */
export const THREAD_CACHE_KIB = 4096;

/** How a thread's connection differs from the main one. */
export interface ConnectionTuning {
  /** SQLite's page cache in KiB: a thread that only appends needs less than the main one. */
  cacheKib?: number;
  /** SQLite: the main thread migrated the file before starting this thread; skip the pass. */
  migrated?: boolean;
}

/**
 * The store the configuration names: PostgreSQL with a database url, SQLite otherwise. Every
 * connection opened with the same share (the main thread's and its threads') writes in turn.
 */
export async function openStore(
  config: StoreConfig,
  share?: StoreShare,
  tuning: ConnectionTuning = {},
): Promise<Store> {
  const { url, poolSize } = config.database;
  if (!url) {
    const lockBuffer = share?.lockBuffer;
    return openSqliteStore({
      path: sqlitePath(config),
      synchronous: config.sqliteSynchronous,
      busyTimeoutMs: config.sqliteBusyTimeoutMs,
      ...tuning,
      ...(lockBuffer ? { writeLock: new WriteLock(lockBuffer) } : {}),
    });
  }
  // Loaded only here: a SQLite gateway (and each of its threads) never holds pg's modules.
  const { openPostgresStore } = await import('./postgres/postgres-store.js');
  return openPostgresStore({ url, poolSize }).catch((err: unknown) => {
    throw new Error(`cannot open the PostgreSQL store at ${redacted(url)}: ${messageOf(err)}`);
  });
}

/** A SQLite store in memory, gone when closed: for unit tests beside the code they test. */
export function openMemoryStore(): Store {
  return openSqliteStore({ path: ':memory:' });
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
