/**
 * The ports of the two-way half (docs/architecture.md): what the network sends back (inbound
 * messages and their files), the outbox of events, opt-outs, and the SMPP server's credentials.
 * ports.ts composes them into the Store with the rest.
 */
import type {
  ArrivedMessage,
  ArrivedPart,
  InboundChannel,
  InboundFilter,
  InboundMessage,
  InboundPage,
} from './inbound/inbound.js';
import type { PendingMedia, SettledMedia } from './inbound/inbound-media.js';
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
} from './events/endpoint.js';
import type { NewEvent } from './events/event.js';
import type { OptOut, OptOutFilter, OptOutSettings, OptOutSource } from './opt-out/opt-out.js';
import type { SmppCredential } from './smpp-server/credential.js';
import type { ApiKey } from './keys/api-key.js';

/** The credentials ESMEs bind to the SMPP server with (docs/smpp-server.md). */
export interface SmppCredentialStore {
  /**
   * Adds one with its key record (kind `smpp`, keyHash credentialHash('smpp', systemId)), or
   * replaces the one with its system_id when it is the same account's, keeping its record.
   */
  saveSmppCredential(c: SmppCredential, record: ApiKey): Promise<'saved' | 'taken'>;
  getSmppCredential(systemId: string): Promise<SmppCredential | undefined>;
  /** An account's, by system_id; every account's when undefined (the operator). */
  listSmppCredentials(accountId: number | undefined): Promise<SmppCredential[]>;
  /** Deletes it and its key record; true when the account had it. */
  deleteSmppCredential(accountId: number, systemId: string): Promise<boolean>;
}

/** Inbound messages (docs/inbound.md): stored once, routed by the number they were sent to. */
export interface InboundStore {
  /**
   * Stores an arrival unless one with its channel and dedupe key is stored already, with its
   * owner (the account that registered `to` for the channel) and its reply link, in one
   * transaction. Answers the stored message, and whether this call stored it.
   */
  storeInbound(
    arrived: ArrivedMessage,
    inboundId: string,
  ): Promise<{ message: InboundMessage; stored: boolean }>;
  /** Newest first; `accountId: null` lists the unrouted ones. */
  listInbound(filter: InboundFilter): Promise<InboundPage>;
  /** The account that registered `number` to receive on `channel`, if any. */
  numberOwner(channel: InboundChannel, number: string): Promise<number | undefined>;
  /**
   * Keeps one part of a concatenated reply (a part delivered twice is kept once); when the last
   * one comes, stores the whole message as storeInbound does and lets the parts go, in the same
   * transaction. Answers the message once whole, undefined while parts are missing.
   */
  storeInboundPart(
    part: ArrivedPart,
    inboundId: string,
  ): Promise<{ message: InboundMessage; stored: boolean } | undefined>;
  /**
   * Stores, marked incomplete, every message whose first part came at or before `cutoff` and
   * is still missing parts. Answers how many.
   */
  flushInboundParts(cutoff: number, newId: () => string): Promise<number>;
}

/**
 * The files inbound WhatsApp messages carry, fetched into the media store (docs/inbound.md). A
 * routed message with a file is stored pending and its message.inbound event waits for the file:
 * the event is written when the fetch settles, with the gateway's URL or why there is none.
 */
export interface InboundMediaStore {
  /**
   * Up to `limit` files due at `now`, each held until `leaseUntil` (no other pass or node takes
   * it before), its attempt counted.
   */
  claimInboundMedia(now: number, leaseUntil: number, limit: number): Promise<PendingMedia[]>;
  /** Tries again at `dueAt`, noting why this attempt failed. */
  postponeInboundMedia(inboundId: string, dueAt: number, error: string): Promise<void>;
  /**
   * Ends a fetch in one transaction: the file stored (when there is one), the message's media
   * settled, its message.inbound event written. False, and nothing written, if it was settled
   * already (by another node whose lease ran out under it).
   */
  settleInboundMedia(inboundId: string, outcome: SettledMedia, at: number): Promise<boolean>;
}

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

/**
 * Opt-outs (docs/opt-out.md), per account and phone. Every change writes its event
 * (contact.opted_out / contact.opted_in) in the same transaction.
 */
export interface OptOutStore {
  optOutSettings(accountId: number): Promise<OptOutSettings>;
  setOptOutSettings(accountId: number, settings: OptOutSettings): Promise<void>;
  /** The phones among `phones` the account may not send to. */
  optedOutAmong(accountId: number, phones: readonly string[]): Promise<Set<string>>;
  /** Records opt-outs not recorded yet; answers the phones this call added. */
  addOptOuts(list: readonly OptOut[], now: number): Promise<string[]>;
  /** Removes the account's opt-outs of these phones; answers the phones removed. */
  removeOptOuts(
    accountId: number,
    phones: readonly string[],
    source: OptOutSource,
    now: number,
  ): Promise<string[]>;
  /** In phone order, a page at a time. */
  listOptOuts(filter: OptOutFilter): Promise<{ optOuts: OptOut[]; nextCursor: string | undefined }>;
}
