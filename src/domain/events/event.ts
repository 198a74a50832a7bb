/**
 * Events an application subscribes to (docs/events.md). Each is written to the outbox in the same
 * transaction as the change it reports and delivered at least once.
 */
export const EVENT_TYPES = [
  'message.receipt',
  'message.status',
  'message.inbound',
  'message.fallback',
  'contact.opted_out',
  'contact.opted_in',
  'template.reviewed',
  'account.limit_reached',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

/** Sent to one endpoint on request (the console's "send test event"); never subscribed to. */
export const TEST_EVENT = 'webhook.test';

export type AnyEventType = EventType | typeof TEST_EVENT;

/** The version of every payload's shape; a change a receiver could trip over raises it. */
export const EVENT_SCHEMA_VERSION = 1;

export function isEventType(type: string): type is EventType {
  return EVENT_TYPES.some((t) => t === type);
}

/** An event about to be written: what happened to which account, and when (ms). */
export interface NewEvent {
  accountId: number;
  type: AnyEventType;
  at: number;
  data: Record<string, unknown>;
}

/**
 * The body sent for an event, fixed when it is written so that every retry and replay sends the
 * same bytes: Standard Webhooks' `{"type","timestamp","data"}`, the schema version in `data`.
 */
export function eventBody(e: NewEvent): string {
  const data = { SchemaVersion: EVENT_SCHEMA_VERSION, ...e.data };
  return JSON.stringify({ type: e.type, timestamp: new Date(e.at).toISOString(), data });
}

/**
 * The subscription filter as stored: `,a,b,` so that one `instr`/`position` test matches a type
 * in either dialect; empty for every type.
 */
export function storedTypeFilter(types: readonly EventType[] | undefined): string {
  return types && types.length > 0 ? `,${[...new Set(types)].join(',')},` : '';
}

export function typesOfFilter(stored: string): EventType[] {
  return stored.split(',').filter(isEventType);
}

/**
 * How an event's number is written wherever people and receivers see it (the `webhook-id`, the
 * EventId of the Actions, the console, the CLI): `evt_<n>`. Defined here once.
 */
export const EVENT_ID_PATTERN = '^evt_[0-9]{1,15}$';

/** The `webhook-id` of an event, its EventId: stable across retries and replays of it. */
export function webhookId(eventId: number): string {
  return `evt_${eventId}`;
}

/** The store's number of an EventId (`evt_<n>`); undefined for anything else. */
export function eventNumber(id: string): number | undefined {
  const m = /^evt_([0-9]{1,15})$/.exec(id);
  return m ? Number(m[1]) : undefined;
}
