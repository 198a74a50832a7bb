import type { SubmitOutcome } from '../../domain/messages/message.js';
import type { MessageStore } from '../../domain/ports.js';
import { inTransaction, type Pool, type Queryable } from './database.js';
import { earlyReportsLock } from './early-reports.js';
import { addEvents, type EventInput } from './events.js';
import { messagesChanged } from './outbox.js';
import { insertParts } from './message-parts.js';
import type { PostgresReports } from './reports.js';

/** Submit outcomes recorded: submitted (with parts and early reports), retried, failed. */
export function postgresOutcomes(
  pool: Pool,
  reports: PostgresReports,
): Pick<MessageStore, 'recordOutcomes'> {
  return {
    async recordOutcomes(list, now) {
      if (list.length === 0) return;
      await inTransaction(pool, (c) => recordAll(c, reports, list, now));
    },
  };
}

type Of<K extends SubmitOutcome['kind']> = Extract<SubmitOutcome, { kind: K }>;

/** Each kind of outcome is one statement over arrays; `attempts` fences off stale workers. */
async function recordAll(
  c: Queryable,
  reports: PostgresReports,
  list: readonly SubmitOutcome[],
  now: number,
): Promise<void> {
  const submitted = list.filter((o): o is Of<'submitted'> => o.kind === 'submitted');
  const retried = list.filter((o): o is Of<'retry'> => o.kind === 'retry');
  const failed = list.filter((o): o is Of<'failed'> => o.kind === 'failed');
  if (submitted.length > 0) await recordSubmitted(c, reports, submitted, now);
  if (retried.length > 0) {
    const r = await c.query<{ id: number; kind: string; code: string; descr: string }>(
      `UPDATE messages m SET state = 'queued', due_at = o.due_at, last_error = o.code || ' ' || o.descr
       FROM unnest($1::bigint[], $2::int[], $3::bigint[], $4::text[], $5::text[])
         AS o(id, attempt, due_at, code, descr)
       WHERE m.id = o.id AND m.state = 'submitting' AND m.attempts = o.attempt
       RETURNING m.id, m.kind, o.code, o.descr`,
      [
        retried.map((o) => o.id),
        retried.map((o) => o.attempt),
        retried.map((o) => o.dueAt),
        retried.map((o) => o.code),
        retried.map((o) => o.desc),
      ],
    );
    await addEvents(c, businessEvents(r.rows, 'retry'), now);
  }
  if (failed.length > 0) {
    const r = await c.query<{ id: number; kind: string; code: string; descr: string }>(
      `UPDATE messages m SET state = 'final', due_at = NULL, status = 'failed',
         receipt_result = 'SubmitFail', receipt_code = o.code, receipt_desc = o.descr, receipt_time = $5
       FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[]) AS o(id, attempt, code, descr)
       WHERE m.id = o.id AND m.state = 'submitting' AND m.attempts = o.attempt
       RETURNING m.id, m.kind, o.code, o.descr`,
      [
        failed.map((o) => o.id),
        failed.map((o) => o.attempt),
        failed.map((o) => o.code),
        failed.map((o) => o.desc),
        Math.floor(now / 1000),
      ],
    );
    await addEvents(c, businessEvents(r.rows, 'failed'), now);
    const changes = r.rows.map((m) => ({
      id: m.id,
      status: 'failed',
      code: m.code,
      desc: m.descr,
    }));
    await messagesChanged(
      c,
      changes.map((m) => ({ ...m, at: now })),
      now,
    );
  }
}

/**
 * The submits, the parts of those that went as several, and the reports that came early for any
 * of their ids in one transaction; the early-reports lock (shared) keeps no early report behind.
 */
async function recordSubmitted(
  c: Queryable,
  reports: PostgresReports,
  submitted: readonly Of<'submitted'>[],
  now: number,
): Promise<void> {
  await earlyReportsLock(c, 'shared');
  const partsOf = (o: Of<'submitted'>) => (o.parts && o.parts.length > 1 ? o.parts : []);
  const r = await c.query<{ id: number; kind: string; upstream_id: string }>(
    `UPDATE messages m SET state = 'submitted', due_at = NULL, upstream = o.upstream,
       upstream_id = o.upstream_id, submitted_at = $6, parts = o.parts
     FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::int[])
       AS o(id, attempt, upstream, upstream_id, parts)
     WHERE m.id = o.id AND m.state = 'submitting' AND m.attempts = o.attempt
     RETURNING m.id, m.kind, m.upstream_id`,
    [
      submitted.map((o) => o.id),
      submitted.map((o) => o.attempt),
      submitted.map((o) => o.upstream),
      submitted.map((o) => o.upstreamId),
      submitted.map((o) => Math.max(1, partsOf(o).length)),
      now,
    ],
  );
  const done = new Set(r.rows.map((m) => m.id));
  const recorded = submitted
    .filter((o) => done.has(o.id))
    .map((o) => {
      const { id, route, upstream, upstreamId } = o;
      return { id, route, upstream, upstreamId, parts: partsOf(o) };
    });
  await insertParts(c, recorded);
  const business = r.rows.filter((m) => m.kind === 'business');
  await addEvents(
    c,
    business.map((m) => ({ id: m.id, status: 'submitted', code: '', desc: m.upstream_id })),
    now,
  );
  await reports.applyEarlyReports(
    c,
    recorded.flatMap((o) =>
      o.parts.length === 0
        ? [o]
        : o.parts.map((upstreamId) => ({ route: o.route, upstream: o.upstream, upstreamId })),
    ),
    now,
  );
}

function businessEvents(
  rows: readonly { id: number; kind: string; code: string; descr: string }[],
  status: string,
): EventInput[] {
  return rows
    .filter((m) => m.kind === 'business')
    .map((m) => ({ id: m.id, status, code: m.code, desc: m.descr }));
}
