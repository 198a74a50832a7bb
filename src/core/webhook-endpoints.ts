import { WirebirdError, invalid } from '../domain/errors.js';
import {
  newEndpoint,
  type EndpointChange,
  type ReplayRequest,
  type WebhookEndpoint,
} from '../domain/events/endpoint.js';
import { EVENT_TYPES, TEST_EVENT, webhookId, type EventType } from '../domain/events/event.js';
import type { Clock, Store } from '../domain/ports.js';
import type { EventsDeps } from '../outbox/start-events.js';
import { isOneOf } from '../util/unknown-values.js';

/** Endpoints an account may have: enough for every environment, not a fan-out amplifier. */
export const MAX_ENDPOINTS = 20;

/**
 * What managing an account's endpoints takes; the Actions and the console's Webhooks page both
 * go through the functions below, so the two cannot differ.
 */
export interface WebhookScope {
  store: Store;
  clock: Clock;
  newEndpointId: () => string;
  /** How long a rotated-out secret still signs. */
  graceMs: number;
  events: EventsDeps;
  accountId: number;
}

export function eventTypesOf(raw: readonly string[] | undefined): EventType[] | undefined {
  if (raw === undefined) return undefined;
  const unknown = raw.filter((t) => !isOneOf(EVENT_TYPES, t));
  if (unknown.length > 0) {
    const known = EVENT_TYPES.join(', ');
    throw invalid('EventTypes', `has unknown types ${unknown.join(', ')}; known: ${known}`);
  }
  // Every one was checked above to be an event type.
  return raw as EventType[];
}

async function checkedUrl(s: WebhookScope, url: string): Promise<string> {
  const problem = await s.events.urlProblem(url);
  if (problem) throw invalid('Url', problem);
  return url;
}

export async function ownEndpoint(s: WebhookScope, endpointId: string): Promise<WebhookEndpoint> {
  const e = await s.store.getEndpoint(s.accountId, endpointId);
  if (!e) throw new WirebirdError('NotFound', `EndpointId ${endpointId} not found`);
  return e;
}

/** A new endpoint and its secret, which is shown this once. */
export async function createEndpoint(
  s: WebhookScope,
  input: { url: string; eventTypes?: readonly string[]; description?: string },
): Promise<{ endpoint: WebhookEndpoint; secret: string }> {
  const url = await checkedUrl(s, input.url);
  const eventTypes = eventTypesOf(input.eventTypes);
  if ((await s.store.listEndpoints(s.accountId)).length >= MAX_ENDPOINTS) {
    throw new WirebirdError(
      'LimitExceeded',
      `an account has at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`,
    );
  }
  const secret = s.events.newSecret();
  const endpoint = newEndpoint({
    endpointId: s.newEndpointId(),
    accountId: s.accountId,
    url,
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(eventTypes === undefined ? {} : { eventTypes }),
    secret: s.events.box.seal(secret),
    now: s.clock.now(),
  });
  await s.store.insertEndpoint(endpoint);
  s.events.endpointsChanged();
  return { endpoint, secret };
}

export async function updateEndpoint(
  s: WebhookScope,
  endpointId: string,
  input: { url?: string; eventTypes?: readonly string[]; description?: string; disabled?: boolean },
): Promise<WebhookEndpoint> {
  const eventTypes = eventTypesOf(input.eventTypes);
  const change: EndpointChange = {
    ...(input.url === undefined ? {} : { url: await checkedUrl(s, input.url) }),
    ...(eventTypes === undefined ? {} : { eventTypes }),
    ...(input.description === undefined ? {} : { description: input.description }),
    ...(input.disabled === undefined ? {} : { disabled: input.disabled }),
  };
  const next = await s.store.updateEndpoint(s.accountId, endpointId, change, s.clock.now());
  if (!next) throw new WirebirdError('NotFound', `EndpointId ${endpointId} not found`);
  // Signed and sent as changed from the next delivery on (and what waited while disabled, now).
  s.events.endpointsChanged();
  return next;
}

export async function deleteEndpoint(s: WebhookScope, endpointId: string): Promise<void> {
  if (!(await s.store.deleteEndpoint(s.accountId, endpointId))) {
    throw new WirebirdError('NotFound', `EndpointId ${endpointId} not found`);
  }
  s.events.endpointsChanged();
}

/**
 * A new secret; the old one keeps signing, as a second signature, for the grace so that
 * receivers can switch without losing a delivery.
 */
export async function rotateSecret(
  s: WebhookScope,
  endpointId: string,
): Promise<{ secret: string; previousUntil: number }> {
  const current = await ownEndpoint(s, endpointId);
  const now = s.clock.now();
  const secret = s.events.newSecret();
  const previousUntil = now + s.graceMs;
  const change = {
    secret: s.events.box.seal(secret),
    previousSecret: current.secret,
    previousUntil,
  };
  await s.store.updateEndpoint(s.accountId, endpointId, change, now);
  // The new secret signs the very next delivery (docs/events.md).
  s.events.endpointsChanged();
  return { secret, previousUntil };
}

/** A `webhook.test` event to one endpoint, delivered like any other; answers its id. */
export async function sendTestEvent(s: WebhookScope, endpointId: string): Promise<number> {
  await ownEndpoint(s, endpointId);
  const now = s.clock.now();
  const data = { EndpointId: endpointId, Message: 'a test event from Wirebird' };
  const event = { accountId: s.accountId, type: TEST_EVENT, at: now, data } as const;
  const [eventId] = await s.store.emitEvents([event], now, endpointId);
  s.events.nudge();
  if (eventId === undefined) throw new WirebirdError('Internal', 'the test event was not written');
  return eventId;
}

/** Sends again: one event, or every failed delivery since a time (docs/events.md). */
export async function replay(
  s: WebhookScope,
  what: { eventId: number } | { failedSince: number },
  endpointId?: string,
): Promise<number> {
  if (endpointId !== undefined) await ownEndpoint(s, endpointId);
  const request: ReplayRequest = {
    accountId: s.accountId,
    ...what,
    ...(endpointId === undefined ? {} : { endpointId }),
  };
  const replayed = await s.store.replayEvents(request, s.clock.now());
  if (replayed === 0 && 'eventId' in what) {
    throw new WirebirdError('NotFound', `EventId ${webhookId(what.eventId)} not found`);
  }
  s.events.nudge();
  return replayed;
}
