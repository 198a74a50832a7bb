import {
  changedEndpoint,
  type ClaimedDelivery,
  type DeliveryResult,
  type ReplayRequest,
  type DeliveryClaim,
  type WebhookEndpoint,
} from '../../domain/events/endpoint.js';
import type { WebhookStore } from '../../domain/ports.js';
import {
  ATTEMPTS_SQL,
  DELIVERY_COLUMNS,
  ENDPOINT_COLUMNS,
  deliveryConditions,
  deliveryPage,
  endpointRowValues,
  toAttempt,
  toEndpoint,
  type AttemptRow,
  type DeliveryRow,
  type EndpointRow,
} from '../rows/outbox.js';
import { inTransaction, type Pool, type Queryable } from './database.js';
import { emitEvents } from './outbox.js';

const P = (n: number) => `$${n}`;

/** Webhook endpoints and the deliveries of their events (docs/events.md). */
export function postgresWebhooks(pool: Pool): WebhookStore {
  return {
    ...postgresEndpoints(pool),
    ...postgresDeliveries(pool),
    async emitEvents(events, now, endpointId) {
      return inTransaction(pool, (c) => emitEvents(c, events, now, endpointId));
    },
  };
}

const endpointValues = (e: WebhookEndpoint) => endpointRowValues(e, (b) => b);

async function oneEndpoint(c: Queryable, accountId: number, endpointId: string, lock = false) {
  const r = await c.query<EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE endpoint_id = $1 AND account_id = $2
     ${lock ? 'FOR UPDATE' : ''}`,
    [endpointId, accountId],
  );
  return r.rows[0] && toEndpoint(r.rows[0]);
}

function postgresEndpoints(pool: Pool) {
  return {
    async insertEndpoint(e: WebhookEndpoint) {
      const marks = endpointValues(e).map((_, i) => P(i + 1));
      await pool.query(
        `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS}) VALUES (${marks.join(',')})`,
        endpointValues(e),
      );
    },
    async listEndpoints(accountId: number | undefined) {
      const where = accountId === undefined ? '' : 'WHERE account_id = $1';
      const r = await pool.query<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ${where} ORDER BY created_at, endpoint_id`,
        accountId === undefined ? [] : [accountId],
      );
      return r.rows.map(toEndpoint);
    },
    async getEndpoint(accountId: number, endpointId: string) {
      return oneEndpoint(pool, accountId, endpointId);
    },
    updateEndpoint: async (accountId, endpointId, change, now) =>
      inTransaction(pool, async (c) => {
        const current = await oneEndpoint(c, accountId, endpointId, true);
        if (!current) return undefined;
        const next = changedEndpoint(current, change, now);
        await c.query(
          `UPDATE webhook_endpoints SET url = $3, description = $4, event_types = $5, secret = $6,
             previous_secret = $7, previous_until = $8, disabled = $9, disabled_reason = $10,
             disabled_at = $11, failing_since = $12, updated_at = $13
           WHERE endpoint_id = $1 AND account_id = $2`,
          // Every column but created_at (the 13th of ENDPOINT_COLUMNS) is written.
          endpointValues(next).filter((_, i) => i !== 12),
        );
        return next;
      }),
    async deleteEndpoint(accountId: number, endpointId: string) {
      // Rows are locked in recordDeliveries' order (deliveries, then the endpoint): the other
      // order deadlocks with a delivery being recorded for this endpoint.
      return inTransaction(pool, async (c) => {
        if (!(await oneEndpoint(c, accountId, endpointId))) return false;
        await c.query('DELETE FROM webhook_deliveries WHERE endpoint_id = $1', [endpointId]);
        await c.query('DELETE FROM webhook_attempts WHERE endpoint_id = $1', [endpointId]);
        const r = await c.query(
          'DELETE FROM webhook_endpoints WHERE endpoint_id = $1 AND account_id = $2',
          [endpointId, accountId],
        );
        return r.rowCount !== 0;
      });
    },
  } satisfies Partial<WebhookStore>;
}

function postgresDeliveries(pool: Pool) {
  return {
    claimDeliveries: (endpointId: string, now: number, limit: number, leaseUntil: number) =>
      claim(pool, { endpointId, now, limit, leaseUntil }),
    recordDeliveries: (results: readonly DeliveryResult[], failingCutoff: number) =>
      results.length === 0
        ? Promise.resolve()
        : inTransaction(pool, (c) => record(c, results, failingCutoff)),
    ...postgresDeliveryReads(pool),
    replayEvents: (request: ReplayRequest, now: number) =>
      inTransaction(pool, (c) => replay(c, request, now)),
    releaseDeliveries: async (claims: readonly DeliveryClaim[], now: number) => {
      if (claims.length === 0) return 0;
      const r = await pool.query(
        `UPDATE webhook_deliveries d SET next_at = $4
         FROM unnest($1::text[], $2::bigint[], $3::int[]) AS r(endpoint_id, event_id, claims)
         WHERE d.endpoint_id = r.endpoint_id AND d.event_id = r.event_id
           AND d.claims = r.claims AND d.state = 'pending' AND d.next_at > $4`,
        [
          claims.map((c) => c.endpointId),
          claims.map((c) => c.eventId),
          claims.map((c) => c.claim),
          now,
        ],
      );
      return r.rowCount ?? 0;
    },
    pruneOutbox: (before: number, limit: number) =>
      inTransaction(pool, async (c) => {
        const old = await c.query<{ event_id: number }>(
          `SELECT event_id FROM outbox_events e WHERE created_at < $1 AND NOT EXISTS (
             SELECT 1 FROM webhook_deliveries d WHERE d.event_id = e.event_id AND d.state = 'pending')
           ORDER BY event_id LIMIT $2 FOR UPDATE SKIP LOCKED`,
          [before, limit],
        );
        const ids = old.rows.map((r) => r.event_id);
        await c.query('DELETE FROM webhook_attempts WHERE event_id = ANY($1::bigint[])', [ids]);
        await c.query('DELETE FROM webhook_deliveries WHERE event_id = ANY($1::bigint[])', [ids]);
        const gone = await c.query('DELETE FROM outbox_events WHERE event_id = ANY($1::bigint[])', [
          ids,
        ]);
        return gone.rowCount ?? 0;
      }),
    async outboxStats() {
      const r = await pool.query<{ n: number; oldest: number | null }>(
        `SELECT count(*)::bigint AS n, min(e.created_at) AS oldest FROM webhook_deliveries d
         JOIN outbox_events e ON e.event_id = d.event_id WHERE d.state = 'pending'`,
      );
      const row = r.rows[0];
      return { pending: row?.n ?? 0, oldestPendingAt: row?.oldest ?? undefined };
    },
  };
}

/** What the API and the console read of deliveries: the listing, attempts, a body. */
function postgresDeliveryReads(pool: Pool) {
  return {
    async listDeliveries(filter: Parameters<WebhookStore['listDeliveries']>[0]) {
      const { where, values } = deliveryConditions(filter, P);
      const r = await pool.query<DeliveryRow>(
        `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
         JOIN outbox_events e ON e.event_id = d.event_id WHERE ${where}
         ORDER BY d.event_id DESC, d.endpoint_id DESC LIMIT ${P(values.length + 1)}`,
        [...values, filter.limit + 1],
      );
      return deliveryPage(r.rows, filter.limit);
    },
    async deliveryAttempts(accountId: number | undefined, endpointId: string, eventId: number) {
      const r = await pool.query<AttemptRow>(
        `SELECT a.* FROM (${ATTEMPTS_SQL(P)}) AS a JOIN outbox_events e ON e.event_id = $2
         WHERE $5::bigint IS NULL OR e.account_id = $5 ORDER BY a.at, a.attempt`,
        [endpointId, eventId, endpointId, eventId, accountId ?? null],
      );
      return r.rows.map(toAttempt);
    },
    async eventBody(accountId: number | undefined, eventId: number) {
      const r = await pool.query<{ body: string }>(
        'SELECT body FROM outbox_events WHERE event_id = $1 AND ($2::bigint IS NULL OR account_id = $2)',
        [eventId, accountId ?? null],
      );
      return r.rows[0]?.body;
    },
  };
}

/**
 * Claims an endpoint's due deliveries, oldest first, skipping those another node holds: the
 * lease is their next due time, so a node that dies leaves them due again when it ends.
 */
async function claim(
  pool: Pool,
  o: { endpointId: string; now: number; limit: number; leaseUntil: number },
): Promise<ClaimedDelivery[]> {
  const r = await pool.query<{
    event_id: number;
    claims: number;
    attempts: number;
    type: ClaimedDelivery['type'];
    body: string;
  }>(
    `WITH due AS (
       SELECT event_id FROM webhook_deliveries WHERE endpoint_id = $1 AND state = 'pending'
         AND next_at <= $2 ORDER BY next_at, event_id LIMIT $3 FOR UPDATE SKIP LOCKED)
     UPDATE webhook_deliveries d SET claims = d.claims + 1, next_at = $4
     FROM due JOIN outbox_events e ON e.event_id = due.event_id
     WHERE d.endpoint_id = $1 AND d.event_id = due.event_id
     RETURNING d.event_id, d.claims, d.attempts, e.type, e.body`,
    [o.endpointId, o.now, o.limit, o.leaseUntil],
  );
  return r.rows
    .sort((a, b) => a.event_id - b.event_id)
    .map((row) => ({
      eventId: row.event_id,
      endpointId: o.endpointId,
      claim: row.claims,
      attempt: row.attempts + 1,
      type: row.type,
      body: row.body,
    }));
}

/** Records attempts, the endpoints' failing runs, and disables those that must stop. */
async function record(
  c: Queryable,
  results: readonly DeliveryResult[],
  failingCutoff: number,
): Promise<void> {
  const col = <T>(f: (r: DeliveryResult) => T) => results.map(f);
  const settled = await c.query<{ endpoint_id: string; event_id: number; i: number }>(
    `WITH r AS (SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::text[], $5::int[],
         $6::bigint[], $7::int[], $8::text[], $9::bigint[], $10::int[]) WITH ORDINALITY
         AS r(endpoint_id, event_id, claims, state, attempts, next_at, status, error, at, latency, i))
     UPDATE webhook_deliveries d SET state = r.state, attempts = r.attempts, next_at = r.next_at,
       last_status = r.status, last_error = r.error, last_at = r.at, latency_ms = r.latency,
       delivered_at = CASE WHEN r.state = 'delivered' THEN r.at END
     FROM r WHERE d.endpoint_id = r.endpoint_id AND d.event_id = r.event_id
       AND d.claims = r.claims AND d.state = 'pending'
     RETURNING r.i`,
    [
      col((r) => r.endpointId),
      col((r) => r.eventId),
      col((r) => r.claim),
      col((r) => r.state),
      col((r) => r.attempt),
      col((r) => r.nextAt ?? null),
      col((r) => r.statusCode ?? null),
      col((r) => r.error),
      col((r) => r.at),
      col((r) => r.latencyMs),
    ],
  );
  // row.i is the 1-based position in results that the statement was given.
  const kept = settled.rows.map((row) => results[row.i - 1] as DeliveryResult);
  // A success's attempt is the delivery's own last_* columns; failures are logged.
  await logAttempts(
    c,
    kept.filter((r) => r.state !== 'delivered'),
  );
  await endpointRuns(c, kept, failingCutoff);
}

async function logAttempts(c: Queryable, kept: readonly DeliveryResult[]): Promise<void> {
  if (kept.length === 0) return;
  await c.query(
    `INSERT INTO webhook_attempts (endpoint_id, event_id, attempt, at, status_code, error, latency_ms)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::int[], $4::bigint[], $5::int[], $6::text[],
       $7::int[])`,
    [
      kept.map((r) => r.endpointId),
      kept.map((r) => r.eventId),
      kept.map((r) => r.attempt),
      kept.map((r) => r.at),
      kept.map((r) => r.statusCode ?? null),
      kept.map((r) => r.error),
      kept.map((r) => r.latencyMs),
    ],
  );
}

/**
 * An endpoint's failing run: ended by a success, begun by a failure after one; an endpoint
 * failing since the cutoff, or answered 410, is disabled. Endpoints are touched in a fixed
 * order so that two nodes recording at once never deadlock.
 */
async function endpointRuns(
  c: Queryable,
  kept: readonly DeliveryResult[],
  failingCutoff: number,
): Promise<void> {
  const ok = [...new Set(kept.filter((r) => r.state === 'delivered').map((r) => r.endpointId))];
  const failed = kept.filter((r) => r.state !== 'delivered');
  if (ok.length > 0) {
    await c.query(
      `UPDATE webhook_endpoints SET failing_since = NULL
       WHERE endpoint_id = ANY($1::text[]) AND failing_since IS NOT NULL`,
      [ok.sort()],
    );
  }
  const firstFailure = new Map<string, DeliveryResult>();
  for (const r of failed)
    if (!firstFailure.has(r.endpointId) || r.disable) firstFailure.set(r.endpointId, r);
  for (const [endpointId, r] of [...firstFailure].sort(([a], [b]) => a.localeCompare(b))) {
    await c.query(
      `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, $2) WHERE endpoint_id = $1`,
      [endpointId, r.at],
    );
    await c.query(
      `UPDATE webhook_endpoints SET disabled = TRUE, disabled_reason = $2, disabled_at = $3,
         updated_at = $3
       WHERE endpoint_id = $1 AND NOT disabled AND ($4 OR failing_since <= $5)`,
      [
        endpointId,
        r.disable ?? 'failing every attempt since the failing limit',
        r.at,
        r.disable !== undefined,
        failingCutoff,
      ],
    );
  }
}

/** Makes deliveries due again now, their retry schedule started afresh. */
async function replay(c: Queryable, r: ReplayRequest, now: number): Promise<number> {
  if (r.endpointId !== undefined) {
    const own = await c.query(
      'SELECT 1 FROM webhook_endpoints WHERE endpoint_id = $1 AND account_id = $2',
      [r.endpointId, r.accountId],
    );
    if (own.rowCount === 0) return 0;
  }
  // A new claim generation: a result still being recorded can no longer settle the replay.
  const again = `state = 'pending', attempts = 0, next_at = $1, delivered_at = NULL,
    claims = webhook_deliveries.claims + 1`;
  if ('eventId' in r && r.endpointId !== undefined) {
    const x = await c.query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, state, next_at)
       SELECT event_id, $4, 'pending', $1 FROM outbox_events WHERE event_id = $2 AND account_id = $3
       ON CONFLICT (endpoint_id, event_id) DO UPDATE SET ${again.replace('$1', 'excluded.next_at')}`,
      [now, r.eventId, r.accountId, r.endpointId],
    );
    return x.rowCount ?? 0;
  }
  if ('eventId' in r) {
    const x = await c.query(
      `UPDATE webhook_deliveries SET ${again} WHERE event_id IN (
         SELECT event_id FROM outbox_events WHERE event_id = $2 AND account_id = $3)`,
      [now, r.eventId, r.accountId],
    );
    return x.rowCount ?? 0;
  }
  const x = await c.query(
    `UPDATE webhook_deliveries SET ${again}
     WHERE state = 'failed' AND ($4::text IS NULL OR endpoint_id = $4) AND event_id IN (
       SELECT event_id FROM outbox_events WHERE account_id = $2 AND created_at >= $3)`,
    [now, r.accountId, r.failedSince, r.endpointId ?? null],
  );
  return x.rowCount ?? 0;
}
