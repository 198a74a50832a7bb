/**
 * What PostgreSQL did for a window of the run, from its own counters: row versions written per
 * table (inserts, updates and how many of them were HOT, deletes) and the WAL generated. CPU per
 * message says how much PostgreSQL spent; these say on what, which is the profile issue 19's
 * target 4 asks for when the server's processes cannot be sampled by function.
 */
import pg from 'pg';
import { connectionConfig } from '../src/store/postgres/database.js';
import { fmt } from './stats.js';

export interface TableWork {
  table: string;
  inserted: number;
  updated: number;
  hotUpdated: number;
  deleted: number;
}

export interface PgWork {
  walBytes: number;
  tables: TableWork[];
}

interface Snapshot {
  lsn: string;
  tables: Map<string, TableWork>;
}

async function snapshot(url: string, schema: string): Promise<Snapshot> {
  const client = new pg.Client(connectionConfig({ url }));
  await client.connect();
  try {
    // The cumulative statistics are per backend until flushed: this makes them current.
    await client.query('SELECT pg_stat_clear_snapshot()');
    const lsn = await client.query<{ lsn: string }>('SELECT pg_current_wal_lsn()::text AS lsn');
    const rows = await client.query<{
      relname: string;
      ins: string;
      upd: string;
      hot: string;
      del: string;
    }>(
      `SELECT relname, n_tup_ins AS ins, n_tup_upd AS upd, n_tup_hot_upd AS hot, n_tup_del AS del
       FROM pg_stat_user_tables WHERE schemaname = $1`,
      [schema],
    );
    const tables = new Map<string, TableWork>();
    for (const r of rows.rows) {
      tables.set(r.relname, {
        table: r.relname,
        inserted: Number(r.ins),
        updated: Number(r.upd),
        hotUpdated: Number(r.hot),
        deleted: Number(r.del),
      });
    }
    return { lsn: lsn.rows[0]?.lsn ?? '0/0', tables };
  } finally {
    await client.end();
  }
}

function lsnBytes(lsn: string): bigint {
  const [hi = '0', lo = '0'] = lsn.split('/');
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

/** Starts a window; the returned function ends it and answers what happened in between. */
export async function pgWorkWindow(url: string, schema: string): Promise<() => Promise<PgWork>> {
  const before = await snapshot(url, schema);
  return async () => {
    // Backends report their counters to the statistics system at most once a second.
    await new Promise((r) => setTimeout(r, 1500));
    const after = await snapshot(url, schema);
    const tables: TableWork[] = [];
    for (const [name, a] of after.tables) {
      const b = before.tables.get(name);
      const t = {
        table: name,
        inserted: a.inserted - (b?.inserted ?? 0),
        updated: a.updated - (b?.updated ?? 0),
        hotUpdated: a.hotUpdated - (b?.hotUpdated ?? 0),
        deleted: a.deleted - (b?.deleted ?? 0),
      };
      if (t.inserted || t.updated || t.deleted) tables.push(t);
    }
    tables.sort(
      (x, y) => y.inserted + y.updated + y.deleted - (x.inserted + x.updated + x.deleted),
    );
    return { walBytes: Number(lsnBytes(after.lsn) - lsnBytes(before.lsn)), tables };
  };
}

/** A table of the window's row writes per message, and its WAL per message. */
export function pgWorkTable(w: PgWork, messages: number): string {
  const per = (n: number) => (n / Math.max(1, messages)).toFixed(2);
  const lines = [
    '| table | inserts / msg | updates / msg (HOT) | deletes / msg |',
    '| --- | --- | --- | --- |',
  ];
  for (const t of w.tables) {
    lines.push(
      `| ${t.table} | ${per(t.inserted)} | ${per(t.updated)} (${per(t.hotUpdated)}) | ${per(t.deleted)} |`,
    );
  }
  const wal = `WAL: ${fmt.int(w.walBytes / Math.max(1, messages))} bytes per message (${fmt.mb(w.walBytes / 1048576)} in all)`;
  return `${lines.join('\n')}\n\n${wal}`;
}

/**
 * The experiment behind `--pg-hot-final`: PostgreSQL makes an update HOT (no new index entries)
 * only when no indexed column changes, and a partial index's predicate counts. The shipped
 * schema's `messages_awaiting` (WHERE state = 'submitted') and `sim_inbox_pending` (WHERE NOT
 * reported) therefore rule HOT out for the final update and the simulator's `reported` mark.
 * Without the predicates, and with room left on each page, those two can be HOT; the sweeper and
 * the simulator's pending scan would then need another way to skip settled rows, which this
 * what-if does not build.
 */
export async function applyHotFinalExperiment(url: string): Promise<void> {
  const client = new pg.Client(connectionConfig({ url }));
  await client.connect();
  try {
    await client.query(`
      DROP INDEX messages_awaiting;
      CREATE INDEX messages_awaiting ON messages (submitted_at);
      DROP INDEX sim_inbox_pending;
      CREATE INDEX sim_inbox_pending ON sim_inbox (report_due_at);
      ALTER TABLE messages SET (fillfactor = 70);
      ALTER TABLE sim_inbox SET (fillfactor = 70);`);
  } finally {
    await client.end();
  }
}
