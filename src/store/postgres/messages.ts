import type { IdempotencyRecord, SubmitOutcome } from '../../domain/messages/message.js';
import { idempotencyWindowStart } from '../../domain/messages/idempotency-window.js';
import type { MessageStore } from '../../domain/ports.js';
import { inTransaction, type Pool, type Queryable } from './database.js';
import {
  INSERT_COLUMNS,
  fromClaimRow,
  fromIdemRow,
  type ClaimRow,
  type IdemRow,
} from '../rows/messages.js';
import { addEvents, type EventInput } from './events.js';
import { insertSms } from './insert-sms.js';
import { postgresReceipts } from './receipts.js';
import { earlyReportsLock } from './early-reports.js';
import { insertParts } from './parts.js';
import { postgresReports, type PostgresReports } from './reports.js';

type AcceptPart = Pick<
  MessageStore,
  | 'acceptBatch'
  | 'acceptBusinessMessage'
  | 'findIdempotency'
  | 'claimDue'
  | 'recordOutcomes'
  | 'extendLeases'
>;

export function postgresMessages(pool: Pool): MessageStore {
  const reports = postgresReports(pool);
  return { ...acceptance(pool, reports), ...reports, ...postgresReceipts(pool) };
}

const IDEM_COLUMNS = 'account_id, idem_key, request_hash, response, created_at';

async function findIdem(
  db: Queryable,
  accountId: number,
  key: string,
  notBefore: number,
): Promise<IdempotencyRecord | undefined> {
  const r = await db.query<IdemRow>(
    `SELECT ${IDEM_COLUMNS} FROM idempotency_keys
     WHERE account_id = $1 AND idem_key = $2 AND created_at >= $3`,
    [accountId, key, notBefore],
  );
  const row = r.rows[0];
  return row && fromIdemRow(row);
}

/**
 * Takes the key for this request unless a record within its window holds it. A concurrent twin
 * inserting the same key makes this statement wait for the twin's commit, then see its row: of
 * two racing requests exactly one stores its messages.
 */
async function takeKey(db: Queryable, idem: IdempotencyRecord): Promise<boolean> {
  const r = await db.query(
    `INSERT INTO idempotency_keys AS k (${IDEM_COLUMNS}) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (account_id, idem_key) DO UPDATE SET request_hash = excluded.request_hash,
       response = excluded.response, created_at = excluded.created_at
     WHERE k.created_at < $6`,
    [
      idem.accountId,
      idem.key,
      idem.requestHash,
      idem.response,
      idem.createdAt,
      idempotencyWindowStart(idem.createdAt),
    ],
  );
  return r.rowCount === 1;
}

/** Runs `write` in one transaction unless the idempotency key is taken within its window. */
async function guarded(
  pool: Pool,
  idem: IdempotencyRecord | undefined,
  write: (db: Queryable) => Promise<void>,
): Promise<IdempotencyRecord | undefined> {
  return inTransaction(pool, async (c) => {
    if (idem && !(await takeKey(c, idem))) {
      const notBefore = idempotencyWindowStart(idem.createdAt);
      return findIdem(c, idem.accountId, idem.key, notBefore);
    }
    await write(c);
    return undefined;
  });
}

const CLAIM = `WITH due AS (
    SELECT id FROM messages WHERE due_at <= $1 ORDER BY due_at LIMIT $2 FOR UPDATE SKIP LOCKED
  )
  UPDATE messages m SET state = 'submitting', attempts = m.attempts + 1, due_at = $3
  FROM due WHERE m.id = due.id
  RETURNING m.id, m.kind, m.account_id, m.route, m.attempts, m.e164, m.sender_id, m.extend_code,
    m.body, m.message_id, m.business_phone, m.type`;

function acceptance(pool: Pool, reports: PostgresReports): AcceptPart {
  return {
    async acceptBatch(batch, idem) {
      return guarded(pool, idem, async (c) => {
        await c.query(
          'INSERT INTO sessions (session_no, account_id, accepted_count, created_at) VALUES ($1,$2,$3,$4)',
          [batch.sessionNo, batch.accountId, batch.messages.length, batch.acceptedAt],
        );
        await insertSms(c, batch);
      });
    },
    async acceptBusinessMessage(m, idem) {
      return guarded(pool, idem, async (c) => {
        await c.query(
          `WITH m AS (
             INSERT INTO messages (${INSERT_COLUMNS})
             VALUES ('business', $1, NULL, $2, $3, $4, $5, NULL, NULL, '', '', '', $6, $7, $8, 1,
               'queued', 'accepted', $9, $9)
             RETURNING id)
           INSERT INTO message_events (message_ref, status, at, code, descr)
           SELECT id, 'accepted', $9, '', '' FROM m`,
          [
            m.accountId,
            m.messageId,
            m.to,
            m.e164,
            m.route,
            m.content,
            m.type,
            m.businessPhone,
            m.acceptedAt,
          ],
        );
      });
    },
    async findIdempotency(accountId, key, notBefore) {
      return findIdem(pool, accountId, key, notBefore);
    },
    async claimDue(now, limit, leaseMs) {
      // SKIP LOCKED: nodes claiming at once take disjoint rows instead of queueing on each other.
      const r = await pool.query<ClaimRow>(CLAIM, [now, limit, now + leaseMs]);
      return r.rows.map(fromClaimRow);
    },
    async recordOutcomes(list, now) {
      if (list.length === 0) return;
      await inTransaction(pool, (c) => recordAll(c, reports, list, now));
    },
    async extendLeases(claims, until) {
      if (claims.length === 0) return;
      await pool.query(
        `UPDATE messages m SET due_at = $1
         FROM unnest($2::bigint[], $3::int[]) AS c(id, attempt)
         WHERE m.id = c.id AND m.state = 'submitting' AND m.attempts = c.attempt`,
        [until, claims.map((c) => c.id), claims.map((c) => c.attempt)],
      );
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
    `UPDATE messages m SET state = 'submitted', due_at = NULL, route = o.route,
       upstream_id = o.upstream_id, submitted_at = $6, parts = o.parts
     FROM unnest($1::bigint[], $2::int[], $3::text[], $4::text[], $5::int[])
       AS o(id, attempt, route, upstream_id, parts)
     WHERE m.id = o.id AND m.state = 'submitting' AND m.attempts = o.attempt
     RETURNING m.id, m.kind, m.upstream_id`,
    [
      submitted.map((o) => o.id),
      submitted.map((o) => o.attempt),
      submitted.map((o) => o.route),
      submitted.map((o) => o.upstreamId),
      submitted.map((o) => Math.max(1, partsOf(o).length)),
      now,
    ],
  );
  const done = new Set(r.rows.map((m) => m.id));
  const recorded = submitted
    .filter((o) => done.has(o.id))
    .map((o) => ({ id: o.id, route: o.route, upstreamId: o.upstreamId, parts: partsOf(o) }));
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
      o.parts.length === 0 ? [o] : o.parts.map((upstreamId) => ({ route: o.route, upstreamId })),
    ),
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
