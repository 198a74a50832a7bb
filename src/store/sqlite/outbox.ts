import { eventBody, type NewEvent } from '../../domain/events/event.js';
import { messageEvent } from '../../domain/events/payloads.js';
import {
  MESSAGE_EVENT_COLUMNS,
  messageEventType,
  messageSourceOf,
  type MessageChange,
  subscribedWhere,
  type MessageEventRow,
} from '../rows/outbox.js';
import type { Db } from './database.js';
import { receiptEndpoint } from '../../domain/smpp-server/receipt-endpoint.js';

/** A change, with what decides whether anyone receives its event. */
export interface SqliteMessageChange extends MessageChange {
  accountId: number;
  kind: string;
  /** The SMPP bind's system_id that asked for the message's receipt, if any. */
  receiptTo: string | null | undefined;
}

export type SqliteOutbox = ReturnType<typeof sqliteOutbox>;

/**
 * Writes events inside the caller's transaction: the outbox row and a delivery per subscribed
 * endpoint. Nothing is written for an account without a subscriber to the type.
 */
export function sqliteOutbox(db: Db) {
  const ownEndpoint = db
    .prepare<unknown[], string>(
      'SELECT endpoint_id FROM webhook_endpoints WHERE endpoint_id = ? AND account_id = ?',
    )
    .pluck();
  const insertEvent = db.prepare(
    'INSERT INTO outbox_events (account_id, type, created_at, body) VALUES (?,?,?,?)',
  );
  const insertDelivery = db.prepare(
    `INSERT INTO webhook_deliveries (event_id, endpoint_id, state, next_at) VALUES (?,?,'pending',?)`,
  );
  const bump = db.prepare<unknown[], MessageEventRow>(
    `UPDATE messages SET event_seq = event_seq + 1 WHERE id = ? RETURNING ${MESSAGE_EVENT_COLUMNS}`,
  );
  const { subscribed, anySubscriber } = cachedSubscribers(db);

  /** Writes one event for its subscribers (or one endpoint of its account); answers its id. */
  const emit = (e: NewEvent, now: number, endpointId?: string): number | undefined => {
    const endpoints =
      endpointId === undefined
        ? subscribed(e.accountId, e.type)
        : ownEndpoint.all(endpointId, e.accountId);
    return emitTo(e, endpoints, now);
  };
  const emitTo = (e: NewEvent, endpoints: readonly string[], now: number): number | undefined => {
    if (endpoints.length === 0) return undefined;
    const eventId = insertEvent.run(e.accountId, e.type, e.at, eventBody(e)).lastInsertRowid;
    for (const id of endpoints) insertDelivery.run(eventId, id, now);
    return Number(eventId);
  };

  /**
   * The event a message's change makes, when its account has a subscriber for it. `written` is
   * the message as the change's own UPDATE returned it, its event_seq already counted: the
   * common receipt then costs no second statement.
   */
  const messageChanged = (c: SqliteMessageChange, now: number, written?: MessageEventRow) => {
    const type = messageEventType(c.kind);
    const subscribers = subscribed(c.accountId, type);
    const bind = receiptEndpoint(c.receiptTo, c.status);
    const endpoints = bind ? [...subscribers, bind] : subscribers;
    if (endpoints.length === 0) return;
    const row = written ?? bump.get(c.id);
    if (!row) return;
    const e = messageEvent(messageSourceOf(row, c.status, row.event_seq), c, c.at);
    if (e) emitTo(e, endpoints, now);
  };

  /** An event for its subscribers and for `extra` endpoints (SMPP binds), as one event. */
  const emitWith = (e: NewEvent, now: number, extra: readonly string[]): void => {
    emitTo(e, [...subscribed(e.accountId, e.type), ...extra], now);
  };

  return { emit, emitWith, messageChanged, anySubscriber };
}

/**
 * The endpoints an account's events of a type go to. A batch of reports asks the same question
 * thousands of times; SQLite work is synchronous, so a cache dropped at the next microtask lives
 * within the one transaction asking, never longer.
 */
function cachedSubscribers(db: Db) {
  const subscribers = db
    .prepare<unknown[], string>(
      `SELECT endpoint_id FROM webhook_endpoints WHERE ${subscribedWhere({ account: '?', type: '?', dialect: 'sqlite' })}`,
    )
    .pluck();
  const anyAccount = db
    .prepare(
      `SELECT count(*) FROM webhook_endpoints WHERE ${subscribedWhere({ account: 'account_id', type: '?', dialect: 'sqlite' })}`,
    )
    .pluck();
  let cache: Map<string, string[] | boolean> | undefined;
  const cached = <T extends string[] | boolean>(key: string, read: () => T): T => {
    if (!cache) {
      cache = new Map();
      queueMicrotask(() => (cache = undefined));
    }
    // Each key is always read by the same reader, so its entry is of the type that reader answers.
    let found = cache.get(key) as T | undefined;
    if (found === undefined) {
      found = read();
      cache.set(key, found);
    }
    return found;
  };
  return {
    subscribed: (accountId: number, type: string): string[] =>
      cached(`${accountId},${type}`, () => subscribers.all(accountId, `,${type},`)),
    /** Whether any account has an endpoint for the type: a change may then read its event's row. */
    anySubscriber: (type: string): boolean =>
      cached(`*,${type}`, () => (anyAccount.get(`,${type},`) as number) > 0),
  };
}
