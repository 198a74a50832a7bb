/** Rows of the outbox and its endpoints as both adapters read them (same column names). */
import type {
  AttemptView,
  DeliveryFilter,
  DeliveryPage,
  DeliveryState,
  DeliveryView,
  WebhookEndpoint,
} from '../../domain/events/endpoint.js';
import { storedTypeFilter, typesOfFilter } from '../../domain/events/event.js';
import type { MessageEventSource } from '../../domain/events/payloads.js';
import { BIND_ENDPOINT_PREFIXES } from '../../domain/smpp-server/receipt-endpoint.js';

export const ENDPOINT_COLUMNS = `endpoint_id, account_id, url, description, event_types, secret,
  previous_secret, previous_until, disabled, disabled_reason, disabled_at, failing_since,
  created_at, updated_at`;

export interface EndpointRow {
  endpoint_id: string;
  account_id: number;
  url: string;
  description: string;
  event_types: string;
  secret: string;
  previous_secret: string | null;
  previous_until: number | null;
  disabled: number | boolean;
  disabled_reason: string;
  disabled_at: number | null;
  failing_since: number | null;
  created_at: number;
  updated_at: number;
}

export function toEndpoint(r: EndpointRow): WebhookEndpoint {
  return {
    endpointId: r.endpoint_id,
    accountId: r.account_id,
    url: r.url,
    description: r.description,
    eventTypes: typesOfFilter(r.event_types),
    secret: r.secret,
    previousSecret: r.previous_secret ?? undefined,
    previousUntil: r.previous_until ?? undefined,
    disabled: Boolean(r.disabled),
    disabledReason: r.disabled_reason,
    disabledAt: r.disabled_at ?? undefined,
    failingSince: r.failing_since ?? undefined,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/** The endpoint's values in ENDPOINT_COLUMNS order; `bool` writes a flag as the dialect does. */
export function endpointRowValues(e: WebhookEndpoint, bool: (b: boolean) => unknown): unknown[] {
  return [
    e.endpointId,
    e.accountId,
    e.url,
    e.description,
    storedTypeFilter(e.eventTypes),
    e.secret,
    e.previousSecret ?? null,
    e.previousUntil ?? null,
    bool(e.disabled),
    e.disabledReason,
    e.disabledAt ?? null,
    e.failingSince ?? null,
    e.createdAt,
    e.updatedAt,
  ];
}

/**
 * The endpoints (rows of webhook_endpoints, aliased `alias`) of an account that receive a type:
 * enabled, and subscribed to it or to every type. `account` and `type` are SQL expressions (a
 * placeholder, a column); the type's value is written `,<type>,`.
 */
export function subscribedWhere(o: {
  account: string;
  type: string;
  dialect: 'sqlite' | 'pg';
  alias?: string;
}): string {
  const w = o.alias ? `${o.alias}.` : '';
  const found =
    o.dialect === 'sqlite'
      ? `instr(${w}event_types, ${o.type}) > 0`
      : `position(${o.type} in ${w}event_types) > 0`;
  const enabled = o.dialect === 'sqlite' ? `${w}disabled = 0` : `NOT ${w}disabled`;
  return `${w}account_id = ${o.account} AND ${enabled} AND (${w}event_types = '' OR ${found})`;
}

/** The columns an event about a message is made from, read as the change is written. */
export const MESSAGE_EVENT_COLUMNS = `id, kind, account_id, session_no, message_id, phone, user_id,
  business_phone, cost_count, status, receipt_result, receipt_code, receipt_desc, receipt_time,
  accepted_at, submitted_at, event_seq, receipt_to, due_at`;

export interface MessageEventRow {
  id: number;
  kind: string;
  account_id: number;
  session_no: string | null;
  message_id: string | null;
  phone: string;
  user_id: string;
  business_phone: string;
  cost_count: number;
  status: string;
  receipt_result: string | null;
  receipt_code: string | null;
  receipt_desc: string | null;
  receipt_time: number | null;
  accepted_at: number;
  submitted_at: number | null;
  event_seq: number;
  receipt_to: string | null;
  due_at: number | null;
}

/** A message whose status moved: what the event about it needs besides the message's row. */
export interface MessageChange {
  id: number;
  /** The status it moved to. */
  status: string;
  code: string;
  desc: string;
  /** When it happened (ms). */
  at: number;
}

/** The message as an event tells it, with the status and sequence of this event. */
export function messageSourceOf(
  r: MessageEventRow,
  status: string,
  sequence: number,
): MessageEventSource {
  return {
    kind: r.kind,
    accountId: r.account_id,
    sessionNo: r.session_no,
    messageId: r.message_id,
    phone: r.phone,
    userId: r.user_id,
    businessPhone: r.business_phone,
    costCount: r.cost_count,
    status,
    receipt:
      r.receipt_result === null
        ? undefined
        : {
            result: r.receipt_result,
            code: r.receipt_code ?? '',
            desc: r.receipt_desc ?? '',
            time: r.receipt_time ?? 0,
          },
    acceptedAt: r.accepted_at,
    submittedAt: r.submitted_at,
    dueAt: r.due_at,
    sequence,
  };
}

/** The event type a change of a message of this kind makes. */
export function messageEventType(kind: string): 'message.receipt' | 'message.status' {
  return kind === 'sms' ? 'message.receipt' : 'message.status';
}

export const DELIVERY_COLUMNS = `d.event_id, d.endpoint_id, e.type, d.state, d.attempts,
  d.last_status, d.last_error, d.last_at, d.latency_ms, d.next_at, e.created_at, d.delivered_at`;

export interface DeliveryRow {
  event_id: number;
  endpoint_id: string;
  type: string;
  state: DeliveryState;
  attempts: number;
  last_status: number | null;
  last_error: string;
  last_at: number | null;
  latency_ms: number | null;
  next_at: number | null;
  created_at: number;
  delivered_at: number | null;
}

export function toDelivery(r: DeliveryRow): DeliveryView {
  return {
    eventId: r.event_id,
    endpointId: r.endpoint_id,
    type: r.type,
    state: r.state,
    attempts: r.attempts,
    lastStatus: r.last_status ?? undefined,
    lastError: r.last_error,
    lastAt: r.last_at ?? undefined,
    latencyMs: r.latency_ms ?? undefined,
    nextAt: r.state === 'pending' ? (r.next_at ?? undefined) : undefined,
    createdAt: r.created_at,
    deliveredAt: r.delivered_at ?? undefined,
  };
}

/** The WHERE of a deliveries listing, newest first; the cursor is `<eventId>.<endpointId>`. */
export function deliveryConditions(
  f: DeliveryFilter,
  p: (n: number) => string,
): { where: string; values: unknown[] } {
  const conds: string[] = [];
  const values: unknown[] = [];
  const add = (sql: (ph: string) => string, v: unknown) => {
    values.push(v);
    conds.push(sql(p(values.length)));
  };
  if (f.accountId !== undefined) add((ph) => `e.account_id = ${ph}`, f.accountId);
  // Webhook deliveries only: receipts to SMPP binds are no endpoint a listing could name.
  for (const prefix of BIND_ENDPOINT_PREFIXES) {
    add((ph) => `substr(d.endpoint_id, 1, ${prefix.length}) <> ${ph}`, prefix);
  }
  if (f.endpointId !== undefined) add((ph) => `d.endpoint_id = ${ph}`, f.endpointId);
  if (f.eventId !== undefined) add((ph) => `d.event_id = ${ph}`, f.eventId);
  if (f.state !== undefined) add((ph) => `d.state = ${ph}`, f.state);
  if (f.before !== undefined) {
    // Each placeholder its own value: SQLite's `?` are positional.
    values.push(f.before.eventId, f.before.eventId, f.before.endpointId);
    const [a, b, c] = [p(values.length - 2), p(values.length - 1), p(values.length)];
    conds.push(`(d.event_id < ${a} OR (d.event_id = ${b} AND d.endpoint_id < ${c}))`);
  }
  return { where: conds.length > 0 ? conds.join(' AND ') : 'TRUE', values };
}

/**
 * A delivery's attempts: the failed ones logged, and its success from the delivery's own row.
 * Placeholders, in order: endpoint, event (the log), endpoint, event (the delivery).
 */
export const ATTEMPTS_SQL = (p: (n: number) => string = () => '?', from = 1) =>
  `SELECT attempt, at, status_code, error, latency_ms FROM webhook_attempts
     WHERE endpoint_id = ${p(from)} AND event_id = ${p(from + 1)}
   UNION ALL
   SELECT attempts AS attempt, last_at AS at, last_status AS status_code, '' AS error,
       latency_ms FROM webhook_deliveries
     WHERE endpoint_id = ${p(from + 2)} AND event_id = ${p(from + 3)} AND state = 'delivered'`;

export interface AttemptRow {
  attempt: number;
  at: number;
  status_code: number | null;
  error: string;
  latency_ms: number;
}

export function toAttempt(r: AttemptRow): AttemptView {
  return {
    attempt: r.attempt,
    at: r.at,
    statusCode: r.status_code ?? undefined,
    error: r.error,
    latencyMs: r.latency_ms,
  };
}

/** A page of deliveries from rows read one past the limit, and the cursor to the next. */
export function deliveryPage(rows: DeliveryRow[], limit: number): DeliveryPage {
  const page = rows.slice(0, limit).map(toDelivery);
  const last = page[page.length - 1];
  const more = rows.length > limit && last !== undefined;
  return {
    deliveries: page,
    nextCursor: more ? { eventId: last.eventId, endpointId: last.endpointId } : undefined,
  };
}
