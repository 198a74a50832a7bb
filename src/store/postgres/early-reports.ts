import type { IssuedId, Report } from '../../domain/messages/message.js';
import { byOccurrence } from '../../domain/messages/status.js';
import { upstreamIdReadings } from '../../domain/messages/upstream-ids.js';
import type { Queryable } from './database.js';

/** Every reading of every key, as parallel arrays; `n` numbers the key each reading comes from. */
export function readingsOf(keys: readonly IssuedId[]) {
  const n: number[] = [];
  const route: string[] = [];
  const upstream: string[] = [];
  const reading: string[] = [];
  keys.forEach((k, i) => {
    for (const r of upstreamIdReadings(k.upstreamId)) {
      n.push(i);
      route.push(k.route);
      upstream.push(k.upstream);
      reading.push(r);
    }
  });
  return { n, route, upstream, reading };
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

/**
 * Whether some report names an upstream id that no message and no part carries yet, in any of
 * its readings (read without locks).
 */
export async function anyUnknown(c: Queryable, reports: readonly Report[]): Promise<boolean> {
  const k = readingsOf(reports);
  const r = await c.query<{ unknown: boolean }>(
    `SELECT EXISTS (
       SELECT 1 FROM unnest($1::int[], $2::text[], $3::text[], $4::text[])
         AS k(n, route, upstream, upstream_id)
       GROUP BY k.n
       HAVING NOT bool_or(
         EXISTS (SELECT 1 FROM messages m WHERE m.route = k.route
           AND m.upstream = k.upstream AND m.upstream_id = k.upstream_id)
         OR EXISTS (SELECT 1 FROM message_parts p WHERE p.route = k.route
           AND p.upstream = k.upstream AND p.upstream_id = k.upstream_id))) AS unknown`,
    [k.n, k.route, k.upstream, k.reading],
  );
  return r.rows[0]?.unknown === true;
}

export async function keepEarly(
  c: Queryable,
  reports: readonly Report[],
  now: number,
): Promise<void> {
  if (reports.length === 0) return;
  await c.query(
    `INSERT INTO early_reports (route, upstream, upstream_id, status, code, descr, at, received_at)
     SELECT *, $8::bigint
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
     ON CONFLICT DO NOTHING`,
    [
      reports.map((x) => x.route),
      reports.map((x) => x.upstream),
      reports.map((x) => x.upstreamId),
      reports.map((x) => x.status),
      reports.map((x) => x.code),
      reports.map((x) => x.desc),
      reports.map((x) => x.at),
      now,
    ],
  );
}

/** Takes the early reports kept under any reading of these issued ids, oldest first. */
export async function takeEarly(c: Queryable, keys: readonly IssuedId[]): Promise<Report[]> {
  const k = readingsOf(keys);
  const r = await c.query<EarlyRow>(
    `DELETE FROM early_reports e
     USING (SELECT DISTINCT * FROM unnest($1::text[], $2::text[], $3::text[]))
       AS k(route, upstream, upstream_id)
     WHERE e.route = k.route AND e.upstream = k.upstream AND e.upstream_id = k.upstream_id
     RETURNING e.route, e.upstream, e.upstream_id, e.status, e.code, e.descr, e.at`,
    [k.route, k.upstream, k.reading],
  );
  return r.rows
    .map((e) => ({
      route: e.route,
      upstream: e.upstream,
      upstreamId: e.upstream_id,
      status: e.status,
      code: e.code,
      desc: e.descr,
      at: e.at,
    }))
    .sort(byOccurrence);
}

interface EarlyRow {
  route: string;
  upstream: string;
  upstream_id: string;
  status: Report['status'];
  code: string;
  descr: string;
  at: number;
}
