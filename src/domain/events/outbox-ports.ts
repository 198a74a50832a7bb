/**
 * The outbox of events and the endpoints it delivers to, as the store keeps them; ports.ts
 * composes them into the Store.
 */
import type {
  AttemptView,
  ClaimedDelivery,
  DeliveryClaim,
  DeliveryFilter,
  DeliveryPage,
  DeliveryResult,
  EndpointChange,
  ReplayRequest,
  SecretChange,
  WebhookEndpoint,
} from './endpoint.js';
import type { NewEvent } from './event.js';

/**
 * The outbox (docs/events.md): events written with the change they report, delivered to the
 * account's endpoints at least once. Every read and change goes through the account.
 */
export interface WebhookStore {
  insertEndpoint(e: WebhookEndpoint): Promise<void>;
  /** An account's endpoints, oldest first; every account's (the worker, operators) when undefined. */
  listEndpoints(accountId: number | undefined): Promise<WebhookEndpoint[]>;
  getEndpoint(accountId: number, endpointId: string): Promise<WebhookEndpoint | undefined>;
  /** Applies the change; the endpoint after it, undefined if unknown or another account's. */
  updateEndpoint(
    accountId: number,
    endpointId: string,
    change: EndpointChange & SecretChange,
    now: number,
  ): Promise<WebhookEndpoint | undefined>;
  /** Removes the endpoint with its deliveries; false if unknown or another account's. */
  deleteEndpoint(accountId: number, endpointId: string): Promise<boolean>;
  /**
   * Writes events for the endpoints subscribed to them (or to `endpointId` alone, a test event);
   * answers the ids of those written (an event nobody receives is not).
   */
  emitEvents(events: readonly NewEvent[], now: number, endpointId?: string): Promise<number[]>;
  /** Takes up to `limit` of an endpoint's due deliveries, each leased until `leaseUntil`. */
  claimDeliveries(
    endpointId: string,
    now: number,
    limit: number,
    leaseUntil: number,
  ): Promise<ClaimedDelivery[]>;
  /**
   * Records attempts: the deliveries, their attempt log, the endpoint's failing run; an endpoint
   * failing since `failingCutoff` or before, or answered 410, is disabled.
   */
  recordDeliveries(results: readonly DeliveryResult[], failingCutoff: number): Promise<void>;
  listDeliveries(filter: DeliveryFilter): Promise<DeliveryPage>;
  deliveryAttempts(
    accountId: number | undefined,
    endpointId: string,
    eventId: number,
  ): Promise<AttemptView[]>;
  /** An event's body as sent; undefined if unknown or another account's. */
  eventBody(accountId: number | undefined, eventId: number): Promise<string | undefined>;
  /** Makes deliveries due again now; answers how many. */
  replayEvents(request: ReplayRequest, now: number): Promise<number>;
  /**
   * Makes due at `now` the deliveries still pending as these claims left them (claimed and not
   * sent at a stop; failed during an outage that has ended), so they wait neither for a lease
   * nor for a long retry step; one claimed or settled since is left alone. Answers how many.
   */
  releaseDeliveries(claims: readonly DeliveryClaim[], now: number): Promise<number>;
  outboxStats(): Promise<{ pending: number; oldestPendingAt: number | undefined }>;
  /**
   * Lets go of settled history: deliveries delivered or failed whose event is older than
   * `before` (with their attempt log), then events with no delivery left; at most `limit`
   * events a call. Answers how many events went.
   */
  pruneOutbox(before: number, limit: number): Promise<number>;
}
