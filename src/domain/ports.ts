/**
 * The contracts between the pure domain and the outer layers. The Store is implemented by every
 * adapter in store/ and checked by one shared contract suite.
 */
import type { BusinessPhone } from './accounts/account.js';
import type { UcloudKey } from './accounts/ucloud-key.js';
import type { SmppCredential } from './smpp-server/credential.js';
import type {
  ArrivedMessage,
  ArrivedPart,
  InboundChannel,
  InboundFilter,
  InboundMessage,
  InboundPage,
} from './inbound/inbound.js';
import type { Signature } from './signatures/signature.js';
import type { StatisticsRow } from './statistics/send-statistics.js';
import type { Template, TemplateStatus } from './templates/template.js';
import type {
  AcceptedBatch,
  AcceptedBusinessMessage,
  BusinessMessageView,
  ClaimedMessage,
  IdempotencyRecord,
  InboxEntry,
  Report,
  SubmitOutcome,
} from './messages/message.js';
import type { MediaFile, MediaInfo, MediaUpload } from './media/media-file.js';
import type { PendingMedia, SettledMedia } from './inbound/inbound-media.js';
import type { ReceiptPerPhone } from './receipts/receipt.js';
import type {
  Conversation,
  ConversationSearch,
  InboxSearch,
  InboxView,
  QueueStats,
  SessionSummary,
  SessionView,
} from './views/views.js';
import type {
  AttemptView,
  ClaimedDelivery,
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

export interface Clock {
  now(): number;
}

/**
 * Periodic background work (sweeps, review passes): taken as an argument, with the clock, so a
 * test drives time instead of sleeping and can say "nothing happened by time T".
 */
export interface Scheduler {
  every(ms: number, run: () => void): { cancel(): void };
}

/** Which route (channel) a message goes through, decided when it is accepted. */
export interface Routing {
  smsRoute(e164: string, senderId: string): string;
}

export interface AccountStore {
  ensureAccount(accountId: number, now: number): Promise<boolean>;
  accountExists(accountId: number): Promise<boolean>;
  /** The region an account's numbers without a country code are read in, if it set its own. */
  accountRegion(accountId: number): Promise<string | undefined>;
  /** Sets (or, with undefined, clears) the account's own region; false if no such account. */
  setAccountRegion(accountId: number, region: string | undefined): Promise<boolean>;
  addApiKey(accountId: number, keyHash: string, now: number): Promise<void>;
  accountForKeyHash(keyHash: string): Promise<number | undefined>;
  countApiKeys(): Promise<number>;
  addSenderId(accountId: number, senderId: string, now: number): Promise<boolean>;
  hasSenderIds(accountId: number, senderIds: readonly string[]): Promise<Set<string>>;
  addBusinessPhone(phone: BusinessPhone): Promise<boolean>;
  getBusinessPhone(accountId: number, businessPhone: string): Promise<BusinessPhone | undefined>;
}

export interface TemplateStore {
  insertTemplate(t: Template): Promise<void>;
  /** Templates of one account among the ids asked for; other accounts' are never returned. */
  getTemplates(accountId: number, templateIds: readonly string[]): Promise<Template[]>;
  getTemplateById(templateId: string): Promise<Template | undefined>;
  /**
   * Saves `next` only if nobody saved the template since it was read (its stored version is still
   * next.version); answers the saved template with its new version, or undefined. `event` (a
   * review's) is written in the same transaction, only when the template is saved.
   */
  replaceTemplate(next: Template, event?: NewEvent): Promise<Template | undefined>;
  listTemplates(filter: { status?: TemplateStatus; accountId?: number }): Promise<Template[]>;
  /** Deletes the account's templates among the ids; answers those deleted, in the order asked. */
  deleteTemplates(accountId: number, templateIds: readonly string[]): Promise<string[]>;
}

/** The UCloud dialect's key pairs; a public key names one account. */
export interface UcloudKeyStore {
  addUcloudKey(key: UcloudKey): Promise<void>;
  getUcloudKey(publicKey: string): Promise<UcloudKey | undefined>;
  listUcloudKeys(accountId: number): Promise<UcloudKey[]>;
  /** True when the account had that key. */
  deleteUcloudKey(accountId: number, publicKey: string): Promise<boolean>;
}

/** The credentials ESMEs bind to the SMPP server with (docs/smpp-server.md). */
export interface SmppCredentialStore {
  /** Adds one, or replaces the one with its system_id when it is the same account's. */
  saveSmppCredential(c: SmppCredential): Promise<'saved' | 'taken'>;
  getSmppCredential(systemId: string): Promise<SmppCredential | undefined>;
  /** An account's, by system_id; every account's when undefined (the operator). */
  listSmppCredentials(accountId: number | undefined): Promise<SmppCredential[]>;
  /** True when the account had it. */
  deleteSmppCredential(accountId: number, systemId: string): Promise<boolean>;
}

/** SMS signatures, reviewed like templates; the same account isolation. */
export interface SignatureStore {
  insertSignature(s: Signature): Promise<void>;
  /** The account's signatures among the ids asked for; other accounts' are never returned. */
  getSignatures(accountId: number, sigIds: readonly string[]): Promise<Signature[]>;
  getSignatureById(sigId: string): Promise<Signature | undefined>;
  /** The account's signatures with exactly this content, newest first. */
  signaturesByContent(accountId: number, sigContent: string): Promise<Signature[]>;
  /** Compare-and-set on the version, as replaceTemplate. */
  replaceSignature(next: Signature): Promise<Signature | undefined>;
  /** Deletes the account's signatures among the ids; answers those deleted, in the order asked. */
  deleteSignatures(accountId: number, sigIds: readonly string[]): Promise<string[]>;
  listSignatures(filter: { status?: TemplateStatus; accountId?: number }): Promise<Signature[]>;
}

/** Counts for GetUSMSSendStatistics. */
export interface StatisticsStore {
  /**
   * The account's SMS accepted in [from, to) milliseconds, counted per UTC day, number and
   * result; with a purpose, only those sent with a template of that purpose.
   */
  sendStatistics(query: {
    accountId: number;
    from: number;
    to: number;
    purpose?: number;
  }): Promise<StatisticsRow[]>;
}

export interface MessageStore {
  /**
   * One transaction: every message of the batch and its idempotency record, or nothing. When the
   * idempotency key is already taken (a concurrent twin won the race) nothing is stored and the
   * record that holds the key is returned instead.
   */
  acceptBatch(
    batch: AcceptedBatch,
    idempotency?: IdempotencyRecord,
  ): Promise<IdempotencyRecord | undefined>;
  acceptBusinessMessage(
    m: AcceptedBusinessMessage,
    idempotency?: IdempotencyRecord,
  ): Promise<IdempotencyRecord | undefined>;
  findIdempotency(
    accountId: number,
    key: string,
    notBefore: number,
  ): Promise<IdempotencyRecord | undefined>;
  /** Claims due messages (queued, or submitting with an expired lease) under a new lease. */
  claimDue(now: number, limit: number, leaseMs: number): Promise<ClaimedMessage[]>;
  /**
   * Moves the lease of claims still being worked on to `until`: a worker that waits on a slow
   * or rate-limited upstream keeps its messages. A claim taken again since (another attempt) or
   * already recorded is left alone.
   */
  extendLeases(claims: readonly { id: number; attempt: number }[], until: number): Promise<void>;
  recordOutcomes(outcomes: readonly SubmitOutcome[], now: number): Promise<void>;
  /** Applies upstream reports; returns how many matched no message yet (kept for a late match). */
  applyReports(reports: readonly Report[], now: number): Promise<{ unmatched: number }>;
  /**
   * Submitted messages whose report never came before `cutoff` become Unknow; early reports kept
   * since before `cutoff` that never matched a message are dropped.
   */
  expireAwaiting(cutoff: number, now: number, limit: number): Promise<number>;
  /**
   * Cancels the account's messages of `sessionNo` not yet claimed for submission (all of them,
   * or the one to `e164`): each ends as a SubmitFail with code CANCELLED, its receipt event
   * written in the same transaction. Answers how many.
   */
  cancelQueued(
    accountId: number,
    sessionNo: string,
    e164: string | undefined,
    now: number,
  ): Promise<number>;
  /** The sessions among `sessionNos` that belong to the account, in the order asked, each once. */
  accountSessions(accountId: number, sessionNos: readonly string[]): Promise<string[]>;
  /**
   * The ReceiptPerPhone of each message of one of the account's sessions that is in a final
   * state, oldest first; read one session at a time so that a large answer is never held whole.
   */
  sessionReceipts(accountId: number, sessionNo: string): Promise<ReceiptPerPhone[]>;
  getBusinessMessage(messageId: string): Promise<BusinessMessageView | undefined>;
  countByState(): Promise<Record<string, number>>;
}

/** What the simulator channel keeps of what it "delivered", per recipient. */
export interface InboxStore {
  /**
   * Stores a delivery; a resubmission of the same message is not stored again: it is counted on
   * the first entry (submissions, lastAttempt), which it returns.
   */
  deliverToInbox(entry: InboxEntry): Promise<{ entry: InboxEntry; duplicate: boolean }>;
  /** deliverToInbox for many entries in one transaction, answers in the same order. */
  deliverManyToInbox(
    entries: readonly InboxEntry[],
  ): Promise<{ entry: InboxEntry; duplicate: boolean }[]>;
  pendingInboxReports(): Promise<InboxEntry[]>;
  markInboxReported(ids: readonly number[]): Promise<void>;
  listInbox(filter: { phone?: string; limit: number }): Promise<InboxEntry[]>;
}

/** Read-mostly views for operators and testers: the console and /metrics. */
export interface OperatorStore {
  /** Entries newest first, with their account and final receipt. */
  searchInbox(filter: InboxSearch): Promise<InboxView[]>;
  /** One conversation per recipient, the most recently delivered first. */
  inboxConversations(filter: ConversationSearch): Promise<Conversation[]>;
  /**
   * Removes entries already reported (all accounts', or one account's); entries whose report is
   * still due stay, so clearing never changes a delivery's outcome. Answers how many went.
   */
  clearInbox(accountId?: number): Promise<number>;
  queueStats(now: number): Promise<QueueStats>;
  /** The newest sessions first (one account's, or every account's), with their results so far. */
  recentSessions(filter: { accountId?: number; limit: number }): Promise<SessionSummary[]>;
  /** A session with its first `limit` messages; undefined if unknown or another account's. */
  sessionView(
    sessionNo: string,
    accountId: number | undefined,
    limit: number,
  ): Promise<SessionView | undefined>;
}

/** Uploaded files and the WhatsApp media ids they got; always read through their account. */
export interface MediaStore {
  insertMedia(file: MediaFile): Promise<void>;
  /** The file without its bytes; undefined if unknown or another account's. */
  getMediaInfo(accountId: number, mediaId: string): Promise<MediaInfo | undefined>;
  /** The file with its bytes; undefined if unknown or another account's. */
  getMediaFile(accountId: number, mediaId: string): Promise<MediaFile | undefined>;
  /** The upload of the account's file to a phone number id, if there was one. */
  getMediaUpload(
    accountId: number,
    mediaId: string,
    phoneNumberId: string,
  ): Promise<MediaUpload | undefined>;
  /** Records an upload, replacing an older one of the same file to the same phone number id. */
  saveMediaUpload(upload: MediaUpload): Promise<void>;
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

/** What a store shared by many gateway nodes adds (PostgreSQL); one node alone needs none. */
export interface ClusterCoordination {
  /** True while this node holds the cluster-wide lock `name`, taking it when it is free. */
  holdsLock(name: string): Promise<boolean>;
  /** Takes up to `wanted` tokens from the route's bucket that all nodes share; answers how many. */
  takeRouteTokens(route: string, wanted: number, ratePerSecond: number): Promise<number>;
}

export interface Store
  extends
    AccountStore,
    UcloudKeyStore,
    SmppCredentialStore,
    TemplateStore,
    SignatureStore,
    StatisticsStore,
    MessageStore,
    InboxStore,
    OperatorStore,
    MediaStore,
    InboundStore,
    InboundMediaStore,
    WebhookStore,
    OptOutStore {
  readonly dialect: 'sqlite' | 'postgres';
  /** Present when several nodes may share the store. */
  readonly cluster?: ClusterCoordination;
  close(): Promise<void>;
}
