import type { Report } from '../../domain/messages/message.js';
import { advanceStatus } from '../../domain/messages/status.js';
import { receiptResultOf } from '../../domain/receipts/receipt.js';
import { inTransaction, type Pool, type Queryable } from './database.js';
import { addEvents, type EventInput } from './events.js';

interface Target {
  id: number;
  kind: string;
  state: string;
  status: string;
  route: string;
  upstream_id: string;
}

/** What a run of reports does to one message, folded in memory and written once. */
interface Change {
  id: number;
  status: string;
  final?: { result: string; code: string; desc: string; time: number };
}

export type PostgresReports = ReturnType<typeof postgresReports>;

const keyOf = (route: string, upstreamId: string) => `${route}\u0000${upstreamId}`;

/**
 * Locks the messages the reports name (so that two nodes applying reports for one message take
 * turns), then applies every report in order as the SQLite adapter does one by one: the first
 * final report makes the receipt, later ones only move the status forward, business messages
 * keep every report in their history. Answers the reports that matched no message.
 */
async function applyAll(c: Queryable, reports: readonly Report[]): Promise<Report[]> {
  if (reports.length === 0) return [];
  const r = await c.query<Target>(
    `SELECT m.id, m.kind, m.state, m.status, m.route, m.upstream_id FROM messages m
     JOIN (SELECT DISTINCT * FROM unnest($1::text[], $2::text[])) AS k(route, upstream_id)
       ON m.route = k.route AND m.upstream_id = k.upstream_id
     ORDER BY m.id FOR UPDATE OF m`,
    [reports.map((x) => x.route), reports.map((x) => x.upstreamId)],
  );
  const targets = new Map(r.rows.map((t) => [keyOf(t.route, t.upstream_id), { ...t }]));
  const changes = new Map<number, Change>();
  const events: EventInput[] = [];
  const unmatched: Report[] = [];
  for (const rep of reports) {
    const m = targets.get(keyOf(rep.route, rep.upstreamId));
    if (!m) {
      unmatched.push(rep);
      continue;
    }
    if (m.kind === 'business')
      events.push({ id: m.id, status: rep.status, code: rep.code, desc: rep.desc, at: rep.at });
    const next = advanceStatus(m.status, rep.status) ?? m.status;
    const result = receiptResultOf(rep.status);
    const change = changes.get(m.id) ?? { id: m.id, status: m.status };
    if (result && m.state !== 'final') {
      m.state = 'final';
      const time = Math.floor(rep.at / 1000);
      change.final = { result, code: rep.code, desc: rep.desc, time };
    }
    m.status = next;
    change.status = next;
    changes.set(m.id, change);
  }
  await writeChanges(c, [...changes.values()]);
  await addEvents(c, events, 0);
  return unmatched;
}

async function writeChanges(c: Queryable, changes: readonly Change[]): Promise<void> {
  const finals = changes.filter((x) => x.final);
  const moved = changes.filter((x) => !x.final);
  if (finals.length > 0) {
    await c.query(
      `UPDATE messages m SET state = 'final', due_at = NULL, status = f.status,
         receipt_result = f.result, receipt_code = f.code, receipt_desc = f.descr, receipt_time = f.time
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[])
         AS f(id, status, result, code, descr, time)
       WHERE m.id = f.id AND m.state <> 'final'`,
      [
        finals.map((x) => x.id),
        finals.map((x) => x.status),
        finals.map((x) => x.final?.result),
        finals.map((x) => x.final?.code),
        finals.map((x) => x.final?.desc),
        finals.map((x) => x.final?.time),
      ],
    );
  }
  if (moved.length > 0) {
    await c.query(
      `UPDATE messages m SET status = s.status
       FROM unnest($1::bigint[], $2::text[]) AS s(id, status)
       WHERE m.id = s.id AND m.status <> s.status`,
      [moved.map((x) => x.id), moved.map((x) => x.status)],
    );
  }
}

async function keepEarly(c: Queryable, reports: readonly Report[], now: number): Promise<void> {
  if (reports.length === 0) return;
  await c.query(
    `INSERT INTO early_reports (route, upstream_id, status, code, descr, at, received_at)
     SELECT *, $7::bigint FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[])
     ON CONFLICT DO NOTHING`,
    [
      reports.map((x) => x.route),
      reports.map((x) => x.upstreamId),
      reports.map((x) => x.status),
      reports.map((x) => x.code),
      reports.map((x) => x.desc),
      reports.map((x) => x.at),
      now,
    ],
  );
}

/** Takes the early reports of these (route, upstream id) pairs, oldest first. */
async function takeEarly(
  c: Queryable,
  keys: readonly { route: string; upstreamId: string }[],
): Promise<Report[]> {
  const r = await c.query<EarlyRow>(
    `DELETE FROM early_reports e USING unnest($1::text[], $2::text[]) AS k(route, upstream_id)
     WHERE e.route = k.route AND e.upstream_id = k.upstream_id
     RETURNING e.route, e.upstream_id, e.status, e.code, e.descr, e.at`,
    [keys.map((k) => k.route), keys.map((k) => k.upstreamId)],
  );
  return r.rows
    .map((e) => ({
      route: e.route,
      upstreamId: e.upstream_id,
      status: e.status,
      code: e.code,
      desc: e.descr,
      at: e.at,
    }))
    .sort((a, b) => a.at - b.at);
}

/**
 * A report can come before the submit it belongs to is recorded, on another connection or node.
 * Each side checks for the other before the other has committed, so both could miss: a report
 * kept early that no submit ever takes. Recording a submit holds this lock shared; keeping early
 * reports holds it exclusively, so one of the two always sees the other's commit. Taken before
 * any row lock, so that it never waits while holding one.
 */
export async function earlyReportsLock(c: Queryable, mode: 'shared' | 'exclusive') {
  const fn = mode === 'shared' ? 'pg_advisory_xact_lock_shared' : 'pg_advisory_xact_lock';
  await c.query(`SELECT ${fn}(hashtext(current_schema() || ':early-reports'))`);
}

/** Whether some report names an upstream id no message carries yet (read without locks). */
async function anyUnknown(c: Queryable, reports: readonly Report[]): Promise<boolean> {
  const r = await c.query<{ unknown: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM unnest($1::text[], $2::text[]) AS k(route, upstream_id)
       WHERE NOT EXISTS (SELECT 1 FROM messages m
         WHERE m.route = k.route AND m.upstream_id = k.upstream_id)) AS unknown`,
    [reports.map((x) => x.route), reports.map((x) => x.upstreamId)],
  );
  return r.rows[0]?.unknown === true;
}

export function postgresReports(pool: Pool) {
  return {
    async applyReports(reports: readonly Report[], now: number) {
      return inTransaction(pool, async (c) => {
        if (await anyUnknown(c, reports)) await earlyReportsLock(c, 'exclusive');
        const unmatched = await applyAll(c, reports);
        await keepEarly(c, unmatched, now);
        return { unmatched: unmatched.length };
      });
    },
    /** Reports that came before their submit answer are applied once the upstream id is known. */
    async applyEarlyReports(c: Queryable, list: readonly { route: string; upstreamId: string }[]) {
      if (list.length === 0) return;
      // Early reports are rare: one look at the table spares a lookup per submitted message.
      const any = await c.query('SELECT 1 FROM early_reports LIMIT 1');
      if (any.rowCount === 0) return;
      await applyAll(c, await takeEarly(c, list));
    },
    async expireAwaiting(cutoff: number, now: number, limit: number) {
      return inTransaction(pool, async (c) => {
        const r = await c.query<{ id: number; kind: string }>(
          `WITH due AS (
             SELECT id FROM messages WHERE state = 'submitted' AND submitted_at <= $2
             ORDER BY submitted_at LIMIT $3 FOR UPDATE SKIP LOCKED)
           UPDATE messages m SET state = 'final', status = 'unknown', receipt_result = 'Unknow',
             receipt_code = 'TIMEOUT',
             receipt_desc = 'no delivery report arrived before the receipt timeout', receipt_time = $1
           FROM due WHERE m.id = due.id RETURNING m.id, m.kind`,
          [Math.floor(now / 1000), cutoff, limit],
        );
        const business = r.rows.filter((m) => m.kind === 'business');
        const desc = 'no status before the receipt timeout';
        await addEvents(
          c,
          business.map((m) => ({ id: m.id, status: 'unknown', code: 'TIMEOUT', desc })),
          now,
        );
        // A report nobody claimed within the receipt timeout belongs to no message we will see.
        await c.query('DELETE FROM early_reports WHERE received_at <= $1', [cutoff]);
        return r.rowCount ?? 0;
      });
    },
  };
}

interface EarlyRow {
  route: string;
  upstream_id: string;
  status: Report['status'];
  code: string;
  descr: string;
  at: number;
}
