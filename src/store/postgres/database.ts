import pg from 'pg';
import { refuseNewerSchema } from '../schema-version.js';
import { postgresMigrations } from './migrations.js';

export type Pool = pg.Pool;
export type Queryable = pg.Pool | pg.PoolClient;

export interface PostgresOptions {
  /** postgres://user:password@host:port/database */
  url: string;
  /** The schema every connection works in (search_path); tests use one of their own. */
  schema?: string;
  /** Connections per node; each dispatch loop, report flush and request holds one at a time. */
  poolSize?: number;
}

// Times are milliseconds since the epoch in BIGINT columns and ids are BIGSERIAL: both fit a
// JavaScript number, so they come back as numbers rather than the driver's default strings.
type TypeId = Parameters<typeof pg.types.getTypeParser>[0];
const types = {
  getTypeParser(oid: TypeId, format?: 'text' | 'binary'): unknown {
    if (oid === pg.types.builtins.INT8 && format !== 'binary') return (v: string) => Number(v);
    // pg-types answers `any`: a parser of the column's text or bytes, untyped.
    const parser: unknown = pg.types.getTypeParser(oid, format);
    return parser;
  },
};

export function connectionConfig(options: PostgresOptions): pg.PoolConfig {
  return {
    connectionString: options.url,
    types: types,
    ...(options.schema ? { options: `-c search_path=${quoteIdent(options.schema)}` } : {}),
  };
}

export function openPool(options: PostgresOptions): Pool {
  const pool = new pg.Pool({ ...connectionConfig(options), max: options.poolSize ?? 10 });
  // An idle connection that drops (a database restart) is replaced on next use; without a
  // listener the pool's 'error' event would end the process.
  pool.on('error', () => undefined);
  return pool;
}

export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Runs `work` in one transaction on one connection of the pool. */
export async function inTransaction<T>(
  pool: Pool,
  work: (client: pg.PoolClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Every node runs migrations at start: one node at a time, all that are missing in one transaction. */
const MIGRATION_LOCK = 'wirebird:migrate';

/** Applies the migrations not yet applied; returns the versions it ran. */
export async function migrate(pool: Pool): Promise<number[]> {
  return inTransaction(pool, async (c) => {
    // Nodes starting together wait here for the first, then find nothing left to do.
    await c.query('SELECT pg_advisory_xact_lock(hashtext(current_schema() || $1))', [
      MIGRATION_LOCK,
    ]);
    await c.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY,
         name TEXT NOT NULL, applied_at BIGINT NOT NULL)`,
    );
    const { rows } = await c.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((r) => r.version));
    refuseNewerSchema(applied, postgresMigrations);
    const ran: number[] = [];
    for (const m of postgresMigrations) {
      if (applied.has(m.version)) continue;
      await c.query(m.sql);
      await c.query(
        'INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)',
        [m.version, m.name, Date.now()],
      );
      ran.push(m.version);
    }
    return ran;
  });
}
