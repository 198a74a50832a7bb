import type {
  ClaimedDelivery,
  DeliveryResult,
  ReplayRequest,
  DeliveryClaim,
  WebhookEndpoint,
} from '../../domain/events/endpoint.js';
import { changedEndpoint } from '../../domain/events/endpoint.js';
import type { WebhookStore } from '../../domain/ports.js';
import {
  DELIVERY_COLUMNS,
  ATTEMPTS_SQL,
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
import type { Db } from './database.js';
import type { SqliteOutbox } from './outbox.js';
import type { SqliteWriter } from './writer.js';

const Q = () => '?';

/** Webhook endpoints and the deliveries of their events (docs/events.md). */
export function sqliteWebhooks(db: Db, writer: SqliteWriter, outbox: SqliteOutbox): WebhookStore {
  return {
    ...sqliteEndpoints(db),
    ...sqliteDeliveries(db, writer),
    async emitEvents(events, now, endpointId) {
      return writer.run(() => events.flatMap((e) => outbox.emit(e, now, endpointId) ?? []));
    },
  };
}

function sqliteEndpoints(db: Db) {
  const insert = db.prepare(
    `INSERT INTO webhook_endpoints (${ENDPOINT_COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
  );
  const one = db.prepare<unknown[], EndpointRow>(
    `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE endpoint_id = ? AND account_id = ?`,
  );
  const update = db.prepare(
    `UPDATE webhook_endpoints SET url = ?, description = ?, event_types = ?, secret = ?,
       previous_secret = ?, previous_until = ?, disabled = ?, disabled_reason = ?, disabled_at = ?,
       failing_since = ?, updated_at = ? WHERE endpoint_id = ? AND account_id = ?`,
  );
  const remove = db.transaction((accountId: number, endpointId: string) => {
    const gone = db
      .prepare('DELETE FROM webhook_endpoints WHERE endpoint_id = ? AND account_id = ?')
      .run(endpointId, accountId).changes;
    if (gone === 0) return false;
    db.prepare('DELETE FROM webhook_deliveries WHERE endpoint_id = ?').run(endpointId);
    db.prepare('DELETE FROM webhook_attempts WHERE endpoint_id = ?').run(endpointId);
    return true;
  });
  const get = (accountId: number, endpointId: string) => {
    const row = one.get(endpointId, accountId);
    return row && toEndpoint(row);
  };
  return {
    async insertEndpoint(e: WebhookEndpoint) {
      insert.run(...endpointValues(e));
    },
    async listEndpoints(accountId: number | undefined) {
      const where = accountId === undefined ? '' : 'WHERE account_id = ?';
      const rows = db
        .prepare<unknown[], EndpointRow>(
          `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints ${where} ORDER BY created_at, endpoint_id`,
        )
        .all(...(accountId === undefined ? [] : [accountId]));
      return rows.map(toEndpoint);
    },
    async getEndpoint(accountId: number, endpointId: string) {
      return get(accountId, endpointId);
    },
    updateEndpoint: async (accountId, endpointId, change, now) =>
      db.transaction(() => {
        const current = get(accountId, endpointId);
        if (!current) return undefined;
        const next = changedEndpoint(current, change, now);
        const v = endpointValues(next);
        update.run(...v.slice(2, 12), next.updatedAt, endpointId, accountId);
        return next;
      })(),
    async deleteEndpoint(accountId: number, endpointId: string) {
      return remove(accountId, endpointId);
    },
  } satisfies Partial<WebhookStore>;
}

const endpointValues = (e: WebhookEndpoint) => endpointRowValues(e, (b) => (b ? 1 : 0));

function sqliteDeliveries(db: Db, writer: SqliteWriter) {
  const claim = sqliteClaim(db);
  const record = sqliteRecord(db);
  const replay = sqliteReplay(db);
  const release = sqliteRelease(db);
  const prune = sqlitePrune(db);
  const pending = db.prepare<unknown[], { n: number; oldest: number | null }>(
    `SELECT count(*) AS n, min(e.created_at) AS oldest FROM webhook_deliveries d
     JOIN outbox_events e ON e.event_id = d.event_id WHERE d.state = 'pending'`,
  );
  return {
    async claimDeliveries(endpointId: string, now: number, limit: number, leaseUntil: number) {
      return writer.run(() => claim(endpointId, now, limit, leaseUntil));
    },
    async recordDeliveries(results: readonly DeliveryResult[], failingCutoff: number) {
      await writer.run(() => record(results, failingCutoff));
    },
    ...sqliteDeliveryReads(db),
    async deliveryAttempts(accountId: number | undefined, endpointId: string, eventId: number) {
      const rows = db
        .prepare<unknown[], AttemptRow>(
          `SELECT a.* FROM (${ATTEMPTS_SQL()}) AS a JOIN outbox_events e ON e.event_id = ?
           WHERE ? IS NULL OR e.account_id = ? ORDER BY a.at, a.attempt`,
        )
        .all(
          ...[endpointId, eventId, endpointId, eventId],
          ...[eventId, accountId ?? null, accountId ?? null],
        );
      return rows.map(toAttempt);
    },
    async eventBody(accountId: number | undefined, eventId: number) {
      return db
        .prepare<unknown[], string>(
          'SELECT body FROM outbox_events WHERE event_id = ? AND (? IS NULL OR account_id = ?)',
        )
        .pluck()
        .get(eventId, accountId ?? null, accountId ?? null);
    },
    async replayEvents(request: ReplayRequest, now: number) {
      return replay(request, now);
    },
    async releaseDeliveries(claims: readonly DeliveryClaim[], now: number) {
      return claims.length === 0 ? 0 : writer.run(() => release(claims, now));
    },
    async pruneOutbox(before: number, limit: number) {
      return prune(before, limit);
    },
    async outboxStats() {
      // An aggregate without GROUP BY answers exactly one row.
      const r = pending.get() as { n: number; oldest: number | null };
      return { pending: r.n, oldestPendingAt: r.oldest ?? undefined };
    },
  };
}

/** What the API and the console list of deliveries. */
function sqliteDeliveryReads(db: Db) {
  return {
    async listDeliveries(filter: Parameters<WebhookStore['listDeliveries']>[0]) {
      const { where, values } = deliveryConditions(filter, Q);
      const rows = db
        .prepare<unknown[], DeliveryRow>(
          `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
           JOIN outbox_events e ON e.event_id = d.event_id WHERE ${where}
           ORDER BY d.event_id DESC, d.endpoint_id DESC LIMIT ?`,
        )
        .all(...values, filter.limit + 1);
      return deliveryPage(rows, filter.limit);
    },
  };
}

/** Claims an endpoint's due deliveries, oldest first: the lease is their next due time. */
function sqliteClaim(db: Db) {
  const take = db.prepare<unknown[], { event_id: number; claims: number; attempts: number }>(
    `UPDATE webhook_deliveries SET claims = claims + 1, next_at = ?
     WHERE endpoint_id = ? AND event_id IN (
       SELECT event_id FROM webhook_deliveries WHERE endpoint_id = ? AND state = 'pending'
         AND next_at <= ? ORDER BY next_at LIMIT ?)
     RETURNING event_id, claims, attempts`,
  );
  const bodies = db.prepare<unknown[], BodyRow>(
    'SELECT event_id, type, body FROM outbox_events WHERE event_id IN (SELECT value FROM json_each(?))',
  );
  return db.transaction(
    (endpointId: string, now: number, limit: number, leaseUntil: number): ClaimedDelivery[] => {
      const rows = take.all(leaseUntil, endpointId, endpointId, now, limit);
      if (rows.length === 0) return [];
      const events = new Map(
        bodies.all(JSON.stringify(rows.map((r) => r.event_id))).map((b) => [b.event_id, b]),
      );
      return rows
        .sort((a, b) => a.event_id - b.event_id)
        .map((r) => {
          // Every delivery has its event: the foreign key holds it.
          const e = events.get(r.event_id) as BodyRow;
          return {
            eventId: r.event_id,
            endpointId,
            claim: r.claims,
            attempt: r.attempts + 1,
            // Written from an EventType by emit().
            type: e.type as ClaimedDelivery['type'],
            body: e.body,
          };
        });
    },
  );
}

interface BodyRow {
  event_id: number;
  type: string;
  body: string;
}

/**
 * Records attempts: the deliveries taken, in one statement (the bulk of every batch); each failure
 * with its row in the attempt log, the endpoint's failing run, and the disabling it may bring. A
 * success's attempt is the delivery's own last_* columns, not a log row.
 */
function sqliteRecord(db: Db) {
  const delivered = db.prepare(
    `UPDATE webhook_deliveries SET state = 'delivered', attempts = r.value ->> 2, next_at = NULL,
       last_status = r.value ->> 4, last_error = '', last_at = r.value ->> 5,
       latency_ms = r.value ->> 6, delivered_at = r.value ->> 5
     FROM json_each(?) AS r
     WHERE webhook_deliveries.endpoint_id = r.value ->> 0
       AND webhook_deliveries.event_id = r.value ->> 1 AND claims = r.value ->> 3
       AND state = 'pending'`,
  );
  const settle = db.prepare(
    `UPDATE webhook_deliveries SET state = ?, attempts = ?, next_at = ?, last_status = ?,
       last_error = ?, last_at = ?, latency_ms = ?
     WHERE endpoint_id = ? AND event_id = ? AND claims = ? AND state = 'pending'`,
  );
  const log = db.prepare(
    `INSERT INTO webhook_attempts (endpoint_id, event_id, attempt, at, status_code, error, latency_ms)
     VALUES (?,?,?,?,?,?,?)`,
  );
  const succeeded = db.prepare(
    'UPDATE webhook_endpoints SET failing_since = NULL WHERE endpoint_id = ? AND failing_since IS NOT NULL',
  );
  const failing = db.prepare(
    'UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, ?) WHERE endpoint_id = ?',
  );
  const disable = db.prepare(
    `UPDATE webhook_endpoints SET disabled = 1, disabled_reason = ?, disabled_at = ?, updated_at = ?
     WHERE endpoint_id = ? AND disabled = 0 AND (? OR failing_since <= ?)`,
  );
  const failed = (r: DeliveryResult, failingCutoff: number) => {
    const changed = settle.run(
      ...[r.state, r.attempt, r.nextAt ?? null, r.statusCode ?? null, r.error, r.at, r.latencyMs],
      ...[r.endpointId, r.eventId, r.claim],
    ).changes;
    if (changed === 0) return;
    log.run(r.endpointId, r.eventId, r.attempt, r.at, r.statusCode ?? null, r.error, r.latencyMs);
    failing.run(r.at, r.endpointId);
    const reason = r.disable ?? 'failing every attempt since the failing limit';
    disable.run(reason, r.at, r.at, r.endpointId, r.disable ? 1 : 0, failingCutoff);
  };
  return db.transaction((results: readonly DeliveryResult[], failingCutoff: number) => {
    const ok = results.filter((r) => r.state === 'delivered');
    if (ok.length > 0) {
      const rows = ok.map((r) => [
        r.endpointId,
        r.eventId,
        r.attempt,
        r.claim,
        r.statusCode,
        r.at,
        r.latencyMs,
      ]);
      delivered.run(JSON.stringify(rows));
      for (const endpointId of new Set(ok.map((r) => r.endpointId))) succeeded.run(endpointId);
    }
    for (const r of results) if (r.state !== 'delivered') failed(r, failingCutoff);
  });
}

/**
 * Makes deliveries due again now, their retry schedule started afresh. A replay is a new claim
 * generation: the result of an attempt still being recorded can no longer settle it.
 */
function sqliteReplay(db: Db) {
  const again = `UPDATE webhook_deliveries SET state = 'pending', attempts = 0, next_at = ?,
    delivered_at = NULL, claims = claims + 1`;
  const own = 'SELECT event_id FROM outbox_events WHERE event_id = ? AND account_id = ?';
  const ownEndpoint = db
    .prepare('SELECT 1 FROM webhook_endpoints WHERE endpoint_id = ? AND account_id = ?')
    .pluck();
  const oneToEndpoint = db.prepare(
    `INSERT INTO webhook_deliveries (event_id, endpoint_id, state, next_at)
     SELECT event_id, ?, 'pending', ? FROM outbox_events WHERE event_id = ? AND account_id = ?
     ON CONFLICT (endpoint_id, event_id) DO UPDATE SET state = 'pending', attempts = 0,
       next_at = excluded.next_at, delivered_at = NULL, claims = webhook_deliveries.claims + 1`,
  );
  const oneEverywhere = db.prepare(`${again} WHERE event_id IN (${own})`);
  const failedSince = db.prepare(
    `${again} WHERE state = 'failed' AND (? IS NULL OR endpoint_id = ?) AND event_id IN (
       SELECT event_id FROM outbox_events WHERE account_id = ? AND created_at >= ?)`,
  );
  return db.transaction((r: ReplayRequest, now: number): number => {
    if (r.endpointId !== undefined && !ownEndpoint.get(r.endpointId, r.accountId)) return 0;
    if ('eventId' in r) {
      if (r.endpointId !== undefined) {
        return oneToEndpoint.run(r.endpointId, now, r.eventId, r.accountId).changes;
      }
      return oneEverywhere.run(now, r.eventId, r.accountId).changes;
    }
    const endpoint = r.endpointId ?? null;
    return failedSince.run(now, endpoint, endpoint, r.accountId, r.failedSince).changes;
  });
}

/** Due now, each delivery still as its claim left it (WebhookStore.releaseDeliveries). */
function sqliteRelease(db: Db) {
  const due = db.prepare(
    `UPDATE webhook_deliveries SET next_at = ?
     FROM json_each(?) AS r
     WHERE webhook_deliveries.endpoint_id = r.value ->> 0
       AND webhook_deliveries.event_id = r.value ->> 1 AND claims = r.value ->> 2
       AND state = 'pending' AND next_at > ?`,
  );
  return db.transaction((claims: readonly DeliveryClaim[], now: number): number => {
    const list = claims.map((c) => [c.endpointId, c.eventId, c.claim]);
    return due.run(now, JSON.stringify(list), now).changes;
  });
}

/** Settled history older than the retention goes, a bounded batch a call. */
function sqlitePrune(db: Db) {
  const old = db
    .prepare(
      `SELECT event_id FROM outbox_events WHERE created_at < ? AND NOT EXISTS (
         SELECT 1 FROM webhook_deliveries d WHERE d.event_id = outbox_events.event_id
           AND d.state = 'pending')
       ORDER BY event_id LIMIT ?`,
    )
    .pluck();
  const dropAttempts = db.prepare(
    'DELETE FROM webhook_attempts WHERE event_id IN (SELECT value FROM json_each(?))',
  );
  const dropDeliveries = db.prepare(
    'DELETE FROM webhook_deliveries WHERE event_id IN (SELECT value FROM json_each(?))',
  );
  const dropEvents = db.prepare(
    'DELETE FROM outbox_events WHERE event_id IN (SELECT value FROM json_each(?))',
  );
  return db.transaction((before: number, limit: number): number => {
    const ids = JSON.stringify(old.all(before, limit));
    dropAttempts.run(ids);
    dropDeliveries.run(ids);
    return dropEvents.run(ids).changes;
  });
}
