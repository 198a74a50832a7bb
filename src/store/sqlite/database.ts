import Database from 'better-sqlite3';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { refuseNewerSchema } from '../schema-version.js';
import { sqliteMigrations } from './migrations.js';

export type Db = Database.Database;

export interface SqliteOptions {
  /** A file path, or ':memory:' for tests. */
  path: string;
  /** FULL survives power loss; NORMAL survives a process crash only. */
  synchronous?: 'FULL' | 'NORMAL';
  /** How long a write waits for another process's lock on the file (5 s unless said). */
  busyTimeoutMs?: number;
  /** The page cache, in KiB (16 MB unless said). */
  cacheKib?: number;
}

/**
 * The database holds hashes of keys and passwords, sealed secrets and every message: readable by
 * its owner only, as the key files beside it are. SQLite gives its -wal and -shm files the
 * database's own mode, so creating it 0600 covers all three; one left 0644 by an older version is
 * tightened.
 */
function ownerOnly(path: string): void {
  mkdirSync(dirname(path), { recursive: true });
  if (!existsSync(path)) closeSync(openSync(path, 'a', 0o600));
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    if (existsSync(file) && (statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
  }
}

export function openDatabase(options: SqliteOptions): Db {
  if (options.path !== ':memory:') ownerOnly(options.path);
  const db = new Database(options.path);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous ?? 'FULL'}`);
  db.pragma(`busy_timeout = ${options.busyTimeoutMs ?? 5000}`);
  // 16 MB: the hot pages are the right edges of the indexes and the newest sessions; 64 MB cost
  // 50 MB of RSS and no measurable CPU (bench/RESULTS.md, section 2).
  db.pragma(`cache_size = -${options.cacheKib ?? 16384}`);
  db.pragma('temp_store = MEMORY');
  return db;
}

/**
 * Applies the migrations not yet applied, all in one transaction; returns the versions it ran.
 * One commit: a first start syncs the file once rather than once a migration, and an upgrade
 * that stops half-way (a crash, a migration that fails) leaves the schema as it was, never half
 * of the new one.
 */
export function migrate(db: Db): number[] {
  db.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)',
  );
  const applied = new Set(
    db.prepare<[], number>('SELECT version FROM schema_migrations').pluck().all(),
  );
  refuseNewerSchema(applied, sqliteMigrations);
  const pending = sqliteMigrations.filter((m) => !applied.has(m.version));
  const record = db.prepare(
    'INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)',
  );
  db.transaction(() => {
    for (const m of pending) {
      db.exec(m.sql);
      record.run(m.version, m.name, Date.now());
    }
  })();
  return pending.map((m) => m.version);
}
