/**
 * The contracts between the pure domain and the outer layers. The Store is implemented by every
 * adapter in store/ and checked by one shared contract suite.
 */
import type { DueFallback, FallbackOutcome } from './business-messages/conversation.js';
import type { HeldChange } from './messages/schedule.js';
import type { ReplaceRefusal } from './accounts/replace-charge.js';
import type { KeyRecord } from './keys/key-record.js';
import type { AuditEntry, AuditFilter, NewAuditEntry } from './audit/audit.js';
import type { ConsoleSessionRecord } from './access/console-session.js';
import type { BusinessPhone } from './accounts/account.js';
import type {
  AcceptOutcome,
  AccountPolicyStore,
  IdempotencyDraft,
} from './accounts/policy-ports.js';
import type { UcloudKey } from './accounts/ucloud-key.js';
import type { NewEvent } from './events/event.js';
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
import type { ReceiptPerPhone } from './receipts/receipt.js';
import type {
  Conversation,
  ConversationSearch,
  InboxSearch,
  InboxView,
  HeldFilter,
  HeldMessage,
  QueueStats,
  SessionReport,
  SessionSummary,
  SessionView,
} from './views/views.js';
import type { WebhookStore } from './events/outbox-ports.js';
import type { InboundMediaStore, InboundStore } from './inbound/inbound-ports.js';
import type { OptOutStore } from './opt-out/opt-out-ports.js';
import type { SmppCredentialStore } from './smpp-server/credential-ports.js';

export type { WebhookStore } from './events/outbox-ports.js';
export type { InboundMediaStore, InboundStore } from './inbound/inbound-ports.js';
export type { OptOutStore } from './opt-out/opt-out-ports.js';
export type { SmppCredentialStore } from './smpp-server/credential-ports.js';
export type { ApiKeyChange, ApiKeyStore } from './keys/key-ports.js';
import type { ApiKeyStore } from './keys/key-ports.js';

/** What a replace_sm did: changed `replaced` held messages, or was refused whole. */
export type ReplaceOutcome = { replaced: number } | { refused: ReplaceRefusal };

export interface Clock {
  now(): number;
}

/**
 * Periodic background work (sweeps, review passes): taken as an argument, with the clock, so a
 * test drives time instead of sleeping and can say "nothing happened by time T". A run may return
 * the promise of its work (never a rejected one: a run handles its own errors): the real
 * scheduler ignores it, a test's clock awaits it before moving on, so a slow store (PostgreSQL)
 * cannot make the next run find the last one still going.
 */
export interface Scheduler {
  every(ms: number, run: () => unknown): { cancel(): void };
}

/** Which route (channel) a message goes through, decided when it is accepted. */
export interface Routing {
  smsRoute(e164: string, senderId: string): string;
}

/** The audit log (domain/audit/audit.ts). */
export interface AuditStore {
  appendAudit(entries: readonly NewAuditEntry[]): Promise<void>;
  /** Newest first; `before` pages back. */
  listAudit(filter: AuditFilter): Promise<AuditEntry[]>;
}

/** Console sessions, kept server-side (domain/access/console-session.ts). */
export interface ConsoleSessionStore {
  insertConsoleSession(s: ConsoleSessionRecord): Promise<void>;
  consoleSession(sessionHash: string): Promise<ConsoleSessionRecord | undefined>;
  /** Ends sessions not ended yet: one (by hash or by its label), or every one; answers how many. */
  endConsoleSessions(
    which: { sessionHash: string } | { label: string } | 'all',
    at: number,
    reason: string,
  ): Promise<number>;
  /** Sessions not ended and not expired at `now`, newest first. */
  liveConsoleSessions(now: number): Promise<ConsoleSessionRecord[]>;
}

/**
 * Business messages as conversations (domain/business-messages/conversation.ts): the window each
 * contact's last message opened, and the SMS fallbacks of business messages.
 */
export interface ConversationStore {
  /** When `contact` last wrote to `businessPhone` (kept as inbound messages are stored), if ever. */
  lastInbound(businessPhone: string, contact: string): Promise<number | undefined>;
  /** Pending fallbacks whose message failed or was delivered, or whose After passed by `now`. */
  dueFallbacks(now: number, limit: number): Promise<DueFallback[]>;
  /**
   * Settles a pending fallback: stores its SMS session (and the `message.fallback` event) when
   * it is sent, all in one transaction. False, changing nothing, when it was not pending (another
   * node settled it first): a fallback is sent at most once.
   */
  /**
   * Settles a pending fallback; answers it as settled (the account's policy may have refused its
   * SMS, making it failed), or undefined when another pass settled it first.
   */
  settleFallback(
    due: DueFallback,
    outcome: FallbackOutcome,
    now: number,
  ): Promise<FallbackOutcome | undefined>;
}

export interface AccountStore {
  ensureAccount(accountId: number, now: number): Promise<boolean>;
  accountExists(accountId: number): Promise<boolean>;
  /** The region an account's numbers without a country code are read in, if it set its own. */
  accountRegion(accountId: number): Promise<string | undefined>;
  /** Sets (or, with undefined, clears) the account's own region; false if no such account. */
  setAccountRegion(accountId: number, region: string | undefined): Promise<boolean>;
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
  /** Adds the pair with its key record (kind `ucloud`, keyHash credentialHash('ucloud', publicKey)). */
  addUcloudKey(key: UcloudKey, record: KeyRecord): Promise<void>;
  getUcloudKey(publicKey: string): Promise<UcloudKey | undefined>;
  listUcloudKeys(accountId: number): Promise<UcloudKey[]>;
  /** True when the account had that key. */
  deleteUcloudKey(accountId: number, publicKey: string): Promise<boolean>;
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
   * One transaction: every message of the batch the account's policy accepts, the policy's
   * counters, and the idempotency record; or nothing. When the idempotency key is already taken
   * (a concurrent twin won the race) nothing is stored and the record that holds the key is
   * returned instead. When the policy refuses every message nothing is stored but its events.
   */
  acceptBatch(batch: AcceptedBatch, idempotency?: IdempotencyDraft): Promise<AcceptOutcome>;
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
   * or the one to `e164`): each ends as Fail with code CANCELED and CostCount 0, its receipt
   * event written in the same transaction. Answers how many.
   */
  cancelQueued(
    accountId: number,
    sessionNo: string,
    e164: string | undefined,
    now: number,
  ): Promise<number>;
  /**
   * Changes what the account's SMS of `sessionNo` still queued will be (replace_sm): the fields
   * `change` names, the rest kept. A part of a message an ESME split itself is never changed;
   * with `senderId`, only messages from that sender are. A new text is charged like the submit
   * it changes (domain/accounts/replace-charge.ts), or the whole replace is refused. Answers how
   * many changed, or the refusal.
   */
  replaceQueued(
    accountId: number,
    sessionNo: string,
    change: HeldChange,
    now: number,
  ): Promise<ReplaceOutcome>;
  /** Cancels the account's business message `messageId` if it is still queued, as above. */
  cancelQueuedBusiness(accountId: number, messageId: string, now: number): Promise<boolean>;
  /**
   * Ends, as Fail with code EXPIRED and CostCount 0, up to `limit` queued messages whose
   * ValidityPeriod passed by `now`, with their events. Answers how many.
   */
  expireQueued(now: number, limit: number): Promise<number>;
  /** The sessions among `sessionNos` that belong to the account, in the order asked, each once. */
  accountSessions(accountId: number, sessionNos: readonly string[]): Promise<string[]>;
  /**
   * The ReceiptPerPhone of each message of one of the account's sessions that is in a final
   * state, oldest first; read one session at a time so that a large answer is never held whole.
   */
  sessionReceipts(accountId: number, sessionNo: string): Promise<ReceiptPerPhone[]>;
  /** As sessionReceipts, with the session's messages held for a later SendAt than `now`. */
  sessionReport(accountId: number, sessionNo: string, now: number): Promise<SessionReport>;
  /**
   * A business message with its history; `owner` an account reads only its own (another's is
   * not read at all, as one that does not exist), `'any'` is the operator's view.
   */
  getBusinessMessage(
    messageId: string,
    owner: number | 'any',
  ): Promise<BusinessMessageView | undefined>;
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
  /** Messages held for a later SendAt, in due order (HeldFilter says which). */
  heldMessages(filter: HeldFilter): Promise<HeldMessage[]>;
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

/** What a store shared by many gateway nodes adds (PostgreSQL); one node alone needs none. */
export interface ClusterCoordination {
  /** True while this node holds the cluster-wide lock `name`, taking it when it is free. */
  holdsLock(name: string): Promise<boolean>;
  /** Takes up to `wanted` tokens from the route's bucket that all nodes share; answers how many. */
  takeRouteTokens(route: string, wanted: number, ratePerSecond: number): Promise<number>;
}

/**
 * What a thread of this process needs to open a store connection of its own beside the main
 * thread's: store/open-store.ts makes it and opens connections with it; everyone else passes it
 * along (it crosses to a worker in its workerData). For SQLite it carries the write lock every
 * connection to the file takes in turn; PostgreSQL needs nothing.
 */
export interface StoreShare {
  readonly lockBuffer: SharedArrayBuffer | undefined;
}

export interface Store
  extends
    AccountStore,
    ApiKeyStore,
    ConsoleSessionStore,
    AuditStore,
    UcloudKeyStore,
    SmppCredentialStore,
    TemplateStore,
    SignatureStore,
    StatisticsStore,
    MessageStore,
    AccountPolicyStore,
    InboxStore,
    OperatorStore,
    MediaStore,
    InboundStore,
    InboundMediaStore,
    WebhookStore,
    OptOutStore,
    ConversationStore {
  readonly dialect: 'sqlite' | 'postgres';
  /** Present when several nodes may share the store. */
  readonly cluster?: ClusterCoordination;
  close(): Promise<void>;
}
