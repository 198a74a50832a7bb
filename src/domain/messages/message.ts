import type { FallbackSpec, FallbackView } from '../business-messages/conversation.js';
import type { ConcatPart } from './concat.js';
/**
 * A message's life in the store: queued → submitting (claimed under a lease) → submitted
 * (awaiting its report) → final (a receipt). Retries go back to queued with a later due time.
 */
export type MessageKind = 'sms' | 'business';
export type MessageState = 'queued' | 'submitting' | 'submitted' | 'final';

/** What upstream reports say, for SMS and business messages alike. */
export type ReportStatus = 'sent' | 'delivered' | 'read' | 'failed' | 'unknown';

export interface AcceptedSms {
  /** The number as the caller wrote it; receipts answer with it. */
  phone: string;
  e164: string;
  route: string;
  templateId: string;
  params: readonly string[];
  senderId: string;
  extendCode: string;
  userId: string;
  /** Rendered at acceptance, so a later template edit never changes an accepted message. */
  text: string;
  costCount: number;
  /** The number's country (ISO 3166-1 alpha-2), as the account's Countries reads it. */
  country: string | undefined;
  /** Set by the account's MaxPerSecond: when this message is due, if not the batch's time. */
  dueAt?: number;
}

export interface AcceptedBatch {
  accountId: number;
  sessionNo: string;
  acceptedAt: number;
  /** When its messages are due: SendAt; absent, at once. */
  dueAt?: number;
  /** When its messages not yet handed upstream expire instead (ValidityPeriod). */
  expiresAt?: number;
  messages: readonly AcceptedSms[];
  /**
   * The system_id of the SMPP bind that submitted the batch and asked for receipts: each final
   * receipt is also delivered to that ESME (docs/smpp-server.md).
   */
  receiptTo?: string;
  /** The part of a concatenated SMS the ESME split itself, sent on as it is (one message only). */
  concat?: ConcatPart;
}

export interface AcceptedBusinessMessage {
  messageId: string;
  requestId: string;
  accountId: number;
  businessPhone: string;
  to: string;
  e164: string;
  route: string;
  type: string;
  /** The normalised content object, as JSON. */
  content: string;
  acceptedAt: number;
  /** The SMS to send when it fails or is not delivered in time. */
  fallback?: FallbackSpec;
  /** When it is due (SendAt), and when it expires unless handed upstream (ValidityPeriod). */
  dueAt?: number;
  expiresAt?: number;
  /** Set when it is accepted already failed (outside the window, with a fallback to send). */
  failure?: { code: string; desc: string };
}

export interface IdempotencyRecord {
  accountId: number;
  key: string;
  requestHash: string;
  /** The first answer, replayed as it was. */
  response: string;
  createdAt: number;
}

export interface ClaimedMessage {
  id: number;
  kind: MessageKind;
  accountId: number;
  route: string;
  attempts: number;
  e164: string;
  senderId: string;
  extendCode: string;
  /** SMS text, or the business message's content JSON. */
  body: string;
  messageId: string | undefined;
  businessPhone: string;
  type: string;
  /** Set for a part an ESME split itself: the channel sends it with this UDH, unsplit. */
  concat?: ConcatPart;
  /** ValidityPeriod's end: an SMSC is told what is left of it, to drop the message too. */
  expiresAt?: number;
}

/**
 * The result of one attempt. `attempt` is the claim's attempt number: an outcome from a worker
 * whose lease expired (and whose message was claimed again) no longer matches and changes nothing.
 */
export type SubmitOutcome =
  | ({
      id: number;
      attempt: number;
      kind: 'submitted';
      upstreamId: string;
      /** Every part's upstream id, in order, when the message went as several submits. */
      parts?: readonly string[];
    } & Issuer)
  | { id: number; attempt: number; kind: 'retry'; dueAt: number; code: string; desc: string }
  | { id: number; attempt: number; kind: 'failed'; code: string; desc: string };

/**
 * Who issued an upstream id, which is unique only there: the message's route (the channel it went
 * through: 'smpp', 'simulator', 'whatsapp') and, within it, the upstream that answered (an SMSC
 * by its configured name; '' when the channel is its own upstream, as the simulator and WhatsApp
 * are). Two named fields, never one string.
 */
export interface Issuer {
  route: string;
  upstream: string;
}

/** An upstream id with its issuer: what a report or a part is found by. */
export interface IssuedId extends Issuer {
  upstreamId: string;
}

export interface Report extends IssuedId {
  status: ReportStatus;
  code: string;
  desc: string;
  /** When the network says it happened, ms since the epoch. */
  at: number;
}

export interface StatusEvent {
  status: string;
  at: number;
  code: string;
  desc: string;
}

export interface BusinessMessageView {
  messageId: string;
  accountId: number;
  businessPhone: string;
  to: string;
  type: string;
  content: string;
  route: string;
  /** The upstream's id for it once submitted (a WhatsApp wamid). */
  upstreamId?: string;
  status: string;
  attempts: number;
  acceptedAt: number;
  history: StatusEvent[];
  /** The SMS it falls back to, when SendMessage gave one. */
  fallback?: FallbackView;
}

/** What the simulator channel keeps of each delivery, per recipient. */
export interface InboxEntry {
  id?: number;
  messageRef: number;
  route: string;
  upstreamId: string;
  kind: MessageKind;
  from: string;
  to: string;
  body: string;
  type: string;
  segments: number;
  encoding: string;
  deliveredAt: number;
  /** The outcome the simulator will report, or 'none' for the never-reports test number. */
  reportStatus: ReportStatus | 'none';
  reportDueAt: number;
  reported: boolean;
  /** Times the message was handed over: more than 1 when a resubmission was recognised. */
  submissions: number;
  /** The dispatch attempt of the latest hand-over (a resubmission comes with a later claim). */
  lastAttempt: number;
}
