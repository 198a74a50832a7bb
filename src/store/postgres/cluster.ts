import pg from 'pg';
import type { ClusterCoordination } from '../../domain/ports.js';
import { connectionConfig, type Pool, type PostgresOptions } from './database.js';

/**
 * Session-level advisory locks live as long as the connection that took them: a node that dies
 * loses its connection and with it the lock, and the next node to ask takes over. So locks are
 * taken on one connection of their own, outside the pool. The key includes the schema, so that
 * separate installations (or test runs) in one database never block each other.
 */
class Locks {
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private readonly held = new Set<string>();
  /** The last ask: the one connection takes one query at a time (pg 9 will refuse more). */
  private asking: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: PostgresOptions) {}

  holds(name: string): Promise<boolean> {
    if (this.held.has(name)) return Promise.resolve(true);
    const ask = this.asking.then(() => this.ask(name));
    this.asking = ask.catch(() => undefined);
    return ask;
  }

  private async ask(name: string): Promise<boolean> {
    if (this.held.has(name)) return true;
    const client = await this.connection();
    const r = await client.query<{ ok: boolean }>(
      'SELECT pg_try_advisory_lock(hashtext(current_schema() || $1)) AS ok',
      [`:${name}`],
    );
    if (r.rows[0]?.ok) this.held.add(name);
    return this.held.has(name);
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.held.clear();
    await client?.end().catch(() => undefined);
  }

  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
    return this.connecting;
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client(connectionConfig(this.options));
    // A dropped connection has released every lock it held: forget them, reconnect on next ask.
    const lost = () => {
      if (this.client === client) this.client = undefined;
      this.held.clear();
    };
    client.on('error', lost);
    client.on('end', lost);
    await client.connect();
    this.client = client;
    return client;
  }
}

/**
 * A token bucket per route in one row that every node draws from, refilled by the database's
 * clock (nodes' clocks may differ): the route's rate holds for the cluster as a whole. Nodes draw
 * a window of messages at a time, so the row sees one update per window, not per message.
 */
const DB_NOW = `(extract(epoch from clock_timestamp()) * 1000)::bigint`;

const TAKE = `WITH cur AS (
    SELECT least($3::float8, tokens + greatest(0, t.now - updated_at) * $3::float8 / 1000) AS avail,
      greatest(updated_at, t.now) AS at
    FROM route_buckets, (SELECT ${DB_NOW} AS now) t WHERE route = $1 FOR UPDATE OF route_buckets)
  UPDATE route_buckets b SET tokens = cur.avail - least($2::float8, floor(cur.avail)), updated_at = cur.at
  FROM cur WHERE b.route = $1
  RETURNING least($2::float8, floor(cur.avail))::int AS granted`;

export function postgresCluster(
  pool: Pool,
  options: PostgresOptions,
): ClusterCoordination & { close(): Promise<void> } {
  const locks = new Locks(options);
  const known = new Set<string>();
  return {
    holdsLock: (name) => locks.holds(name),
    async takeRouteTokens(route, wanted, ratePerSecond) {
      if (!known.has(route)) {
        // A new bucket starts full, as the per-node limiter does.
        await pool.query(
          `INSERT INTO route_buckets (route, tokens, updated_at) VALUES ($1, $2, ${DB_NOW})
           ON CONFLICT DO NOTHING`,
          [route, ratePerSecond],
        );
        known.add(route);
      }
      const r = await pool.query<{ granted: number }>(TAKE, [route, wanted, ratePerSecond]);
      return r.rows[0]?.granted ?? 0;
    },
    close: () => locks.close(),
  };
}
