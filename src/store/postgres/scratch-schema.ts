import pg from 'pg';
import { randomBytes } from 'node:crypto';
import type { Store } from '../../domain/ports.js';
import { connectionConfig, quoteIdent } from './database.js';
import { openPostgresStore } from './postgres-store.js';

/**
 * A schema of its own for a test or a benchmark run, so that runs sharing one database never see
 * each other's rows; dropped with everything in it when done.
 */
export interface ScratchSchema {
  /** The database url with the schema as every connection's search_path. */
  url: string;
  schema: string;
  open(): Promise<Store>;
  drop(): Promise<void>;
}

export async function createScratchSchema(url: string, prefix = 'wb_test'): Promise<ScratchSchema> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  await admin(url, `CREATE SCHEMA ${quoteIdent(schema)}`);
  // The schema travels in the url, so a gateway given only a DATABASE_URL works in it too.
  const bound = new URL(url);
  bound.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: bound.toString(),
    schema,
    open: () => openPostgresStore({ url, schema, poolSize: 4 }),
    drop: () => admin(url, `DROP SCHEMA IF EXISTS ${quoteIdent(schema)} CASCADE`),
  };
}

async function admin(url: string, sql: string): Promise<void> {
  const client = new pg.Client(connectionConfig({ url }));
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
