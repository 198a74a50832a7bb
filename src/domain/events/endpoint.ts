import type { AnyEventType, EventType } from './event.js';

export const ENDPOINT_ID_PREFIX = 'we_';

/** An application's URL that receives the account's events (docs/events.md). */
export interface WebhookEndpoint {
  /** `we_` and random characters. */
  endpointId: string;
  accountId: number;
  url: string;
  description: string;
  /** The types it receives; empty for every type. */
  eventTypes: EventType[];
  /** The signing secret, sealed (the gateway must read it back to sign). */
  secret: string;
  /** After a rotation, the previous secret (sealed) still signs until `previousUntil` (ms). */
  previousSecret: string | undefined;
  previousUntil: number | undefined;
  disabled: boolean;
  /** Why it was disabled: by its account, a 410 Gone, or failing every attempt for days. */
  disabledReason: string;
  disabledAt: number | undefined;
  /** When the current run of failed attempts began; undefined after a success. */
  failingSince: number | undefined;
  createdAt: number;
  updatedAt: number;
}

/** A new endpoint: enabled, never failed, its secret already sealed. */
export function newEndpoint(o: {
  endpointId: string;
  accountId: number;
  url: string;
  description?: string;
  eventTypes?: EventType[];
  secret: string;
  now: number;
}): WebhookEndpoint {
  return {
    endpointId: o.endpointId,
    accountId: o.accountId,
    url: o.url,
    description: o.description ?? '',
    eventTypes: o.eventTypes ?? [],
    secret: o.secret,
    previousSecret: undefined,
    previousUntil: undefined,
    disabled: false,
    disabledReason: '',
    disabledAt: undefined,
    failingSince: undefined,
    createdAt: o.now,
    updatedAt: o.now,
  };
}

/** What an account may change of an endpoint; absent fields stay. */
export interface EndpointChange {
  url?: string;
  description?: string;
  eventTypes?: EventType[];
  disabled?: boolean;
}

/** A rotation: the new secret, and the old one signing beside it until `previousUntil`. */
export interface SecretChange {
  secret?: string;
  previousSecret?: string | undefined;
  previousUntil?: number | undefined;
}

/**
 * An endpoint after a change. Disabling records who did it; enabling forgets why it was
 * disabled and its failing run, so the automatic disabling counts from scratch.
 */
export function changedEndpoint(
  current: WebhookEndpoint,
  change: EndpointChange & SecretChange,
  now: number,
): WebhookEndpoint {
  const next: WebhookEndpoint = { ...current, updatedAt: now };
  if (change.url !== undefined) next.url = change.url;
  if (change.description !== undefined) next.description = change.description;
  if (change.eventTypes !== undefined) next.eventTypes = change.eventTypes;
  if (change.secret !== undefined) {
    next.secret = change.secret;
    next.previousSecret = change.previousSecret;
    next.previousUntil = change.previousUntil;
  }
  if (change.disabled === true && !current.disabled) {
    Object.assign(next, {
      disabled: true,
      disabledReason: 'disabled by its account',
      disabledAt: now,
    });
  } else if (change.disabled === false && current.disabled) {
    Object.assign(next, {
      disabled: false,
      disabledReason: '',
      disabledAt: undefined,
      failingSince: undefined,
    });
  }
  return next;
}

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** An event's delivery to one endpoint, claimed by a worker under a lease. */
export interface ClaimedDelivery {
  eventId: number;
  endpointId: string;
  /** Which claim this is: a result for an older claim (its lease expired) is ignored. */
  claim: number;
  /** The attempt this claim makes, from 1. */
  attempt: number;
  type: AnyEventType;
  body: string;
}

/** A delivery as one claim holds it: enough to act on it only while that claim is the last. */
export type DeliveryClaim = Pick<ClaimedDelivery, 'eventId' | 'endpointId' | 'claim'>;

/** What one attempt came to, as the worker records it. */
export interface DeliveryResult {
  eventId: number;
  endpointId: string;
  claim: number;
  attempt: number;
  at: number;
  /** The receiver's HTTP status; undefined when none came (timeout, refused, reset). */
  statusCode: number | undefined;
  error: string;
  latencyMs: number;
  /** delivered; pending again at `nextAt`; or failed for good. */
  state: DeliveryState;
  nextAt: number | undefined;
  /** Set when this answer disables the endpoint (410 Gone). */
  disable: string | undefined;
}

/** One delivery as the API and the console list it. */
export interface DeliveryView {
  eventId: number;
  endpointId: string;
  type: string;
  state: DeliveryState;
  attempts: number;
  lastStatus: number | undefined;
  lastError: string;
  lastAt: number | undefined;
  latencyMs: number | undefined;
  nextAt: number | undefined;
  createdAt: number;
  deliveredAt: number | undefined;
}

export interface AttemptView {
  attempt: number;
  at: number;
  statusCode: number | undefined;
  error: string;
  latencyMs: number;
}

export interface DeliveryFilter {
  accountId: number | undefined;
  endpointId?: string;
  eventId?: number;
  state?: DeliveryState;
  /** Listed after this one (a cursor from an earlier page): newest event first. */
  before?: DeliveryCursor;
  limit: number;
}

export interface DeliveryCursor {
  eventId: number;
  endpointId: string;
}

export interface DeliveryPage {
  deliveries: DeliveryView[];
  nextCursor: DeliveryCursor | undefined;
}

/** Which deliveries a replay sends again: one event, or every failed one since a time. */
export type ReplayRequest =
  | { accountId: number; eventId: number; endpointId?: string }
  | { accountId: number; failedSince: number; endpointId?: string };
