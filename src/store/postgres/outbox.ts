import { eventBody, type NewEvent } from '../../domain/events/event.js';
import { messageEvent } from '../../domain/events/payloads.js';
import {
  MESSAGE_EVENT_COLUMNS,
  messageSourceOf,
  type MessageChange,
  subscribedWhere,
  type MessageEventRow,
} from '../rows/outbox.js';
import type { Queryable } from './database.js';
import { receiptEndpoint } from '../../domain/smpp-server/receipt-endpoint.js';

/** The endpoints an event (a row `u` with account_id and type) goes to. */
const SUBSCRIBED = subscribedWhere({
  account: 'u.account_id',
  type: "',' || u.type || ','",
  dialect: 'pg',
  alias: 'w',
});

/**
 * Writes events inside the caller's transaction: the outbox rows and a delivery per subscribed
 * endpoint (or to `endpointId` of the event's account alone). Events nobody is subscribed to are
 * not written. Answers the ids of those written.
 */
export async function emitEvents(
  c: Queryable,
  events: readonly NewEvent[],
  now: number,
  endpointId?: string,
): Promise<number[]> {
  if (events.length === 0) return [];
  const target =
    endpointId === undefined ? SUBSCRIBED : 'w.account_id = u.account_id AND w.endpoint_id = $6';
  const r = await c.query<{ event_id: number }>(
    `WITH u AS (SELECT * FROM unnest($1::bigint[], $2::text[], $3::bigint[], $4::text[])
                  WITH ORDINALITY AS u(account_id, type, created_at, body, n)),
     ev AS (INSERT INTO outbox_events (account_id, type, created_at, body)
            SELECT account_id, type, created_at, body FROM u
            WHERE EXISTS (SELECT 1 FROM webhook_endpoints w WHERE ${target}) ORDER BY n
            RETURNING event_id, account_id, type)
     INSERT INTO webhook_deliveries (event_id, endpoint_id, state, next_at)
     SELECT u.event_id, w.endpoint_id, 'pending', $5 FROM ev AS u
       JOIN webhook_endpoints w ON ${target}
     RETURNING event_id`,
    [
      events.map((e) => e.accountId),
      events.map((e) => e.type),
      events.map((e) => e.at),
      events.map(eventBody),
      now,
      ...(endpointId === undefined ? [] : [endpointId]),
    ],
  );
  return [...new Set(r.rows.map((row) => row.event_id))].sort((a, b) => a - b);
}

const RETURNED = MESSAGE_EVENT_COLUMNS.split(',')
  .map((col) => `m.${col.trim()}`)
  .join(', ');

/**
 * The events that changes of messages make, for the accounts subscribed to them: each message's
 * sequence moves by its number of changes, each change's event numbered in turn.
 */
export async function messagesChanged(
  c: Queryable,
  changes: readonly MessageChange[],
  now: number,
): Promise<void> {
  if (changes.length === 0) return;
  const byId = new Map<number, MessageChange[]>();
  for (const ch of changes) byId.set(ch.id, [...(byId.get(ch.id) ?? []), ch]);
  const type = "CASE WHEN m.kind = 'sms' THEN ',message.receipt,' ELSE ',message.status,' END";
  const r = await c.query<MessageEventRow>(
    `WITH ch AS (SELECT * FROM unnest($1::bigint[], $2::int[]) AS ch(id, n))
     UPDATE messages m SET event_seq = m.event_seq + ch.n FROM ch
     WHERE m.id = ch.id AND (m.receipt_to IS NOT NULL OR EXISTS (SELECT 1 FROM webhook_endpoints w
       WHERE ${subscribedWhere({ account: 'm.account_id', type, dialect: 'pg', alias: 'w' })}))
     RETURNING ${RETURNED}`,
    [[...byId.keys()], [...byId.values()].map((l) => l.length)],
  );
  const events: NewEvent[] = [];
  const toBinds: { e: NewEvent; endpointId: string }[] = [];
  for (const row of r.rows) {
    const list = byId.get(row.id) ?? [];
    list.forEach((ch, i) => {
      const sequence = row.event_seq - list.length + i + 1;
      const e = messageEvent(messageSourceOf(row, ch.status, sequence), ch, ch.at);
      if (e) events.push(e);
      const bind = receiptEndpoint(row.receipt_to, ch.status);
      if (e && bind) toBinds.push({ e, endpointId: bind });
    });
  }
  // Written only for subscribed webhook endpoints; the SMPP bind's copy is its own event.
  await emitEvents(c, events, now);
  await emitToSmpp(c, toBinds, now);
}

/** Events for SMPP binds (docs/smpp-server.md): no webhook_endpoints row names them. */
export async function emitToSmpp(
  c: Queryable,
  list: readonly { e: NewEvent; endpointId: string }[],
  now: number,
): Promise<void> {
  for (const { e, endpointId } of list) {
    await c.query(
      `WITH ev AS (INSERT INTO outbox_events (account_id, type, created_at, body)
                   VALUES ($1, $2, $3, $4) RETURNING event_id)
       INSERT INTO webhook_deliveries (event_id, endpoint_id, state, next_at)
       SELECT event_id, $5, 'pending', $6 FROM ev`,
      [e.accountId, e.type, e.at, eventBody(e), endpointId, now],
    );
  }
}
