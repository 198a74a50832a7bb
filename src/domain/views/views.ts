/**
 * What operators and testers look at (the console, /metrics): read-only views over stored
 * messages and the simulator inbox. Times are ms since the epoch unless named otherwise.
 */
import type { InboxEntry } from '../messages/message.js';
import type { ReceiptPerPhone, ReceiptResult } from '../receipts/receipt.js';

/** An inbox entry with the account that sent it and the receipt its message ended with. */
export interface InboxView extends InboxEntry {
  id: number;
  accountId: number;
  acceptedAt: number;
  receiptResult: ReceiptResult | undefined;
  /** Unix seconds, as receipts carry it. */
  receiptTime: number | undefined;
}

export interface InboxSearch {
  /** Only this account's messages; every account's when absent (the admin). */
  accountId?: number;
  /** Exactly this recipient (E.164). */
  phone?: string;
  /** A substring of the recipient's number or of the body. */
  query?: string;
  /** Only these entries. */
  ids?: readonly number[];
  limit: number;
}

/** A page of conversations: those whose newest entry is older than `before` (a lastId). */
export type ConversationSearch = Omit<InboxSearch, 'phone' | 'ids'> & { before?: number };

/** One handset's conversation: every entry delivered to one number. */
export interface Conversation {
  phone: string;
  count: number;
  lastId: number;
  lastDeliveredAt: number;
}

export interface QueueStats {
  /** Messages not yet submitted: queued, or claimed and being submitted. */
  depth: number;
  /** The due time of the message that has waited longest past it, if any is due. */
  oldestDueAt: number | undefined;
  /** Messages held for a later SendAt (queued, never tried, due after now). */
  held: number;
}

/** A message held for a later SendAt, as the console lists it. */
export interface HeldMessage {
  id: number;
  kind: 'sms' | 'business';
  accountId: number;
  /** The SMS's session; undefined for a business message. */
  sessionNo: string | undefined;
  /** The business message's id; undefined for an SMS. */
  messageId: string | undefined;
  phone: string;
  e164: string;
  /** SMS text, or the business message's content JSON. */
  body: string;
  dueAt: number;
  expiresAt: number | undefined;
  acceptedAt: number;
}

/** What a held message shows of itself beside receipts (GetUSMSSendReceipt's HeldSet). */
export type HeldView = Pick<
  HeldMessage,
  'sessionNo' | 'messageId' | 'phone' | 'dueAt' | 'expiresAt' | 'acceptedAt'
>;

/** A session's receipts, and its messages held for a later SendAt, read in one pass. */
export interface SessionReport {
  receipts: ReceiptPerPhone[];
  held: HeldView[];
}

/** Which held messages to list: one account's or all, one session's, due before a time. */
export interface HeldFilter {
  now: number;
  accountId?: number;
  sessionNo?: string;
  dueBefore?: number;
  /** The last one of the page before: its due time and id. */
  after?: { dueAt: number; id: number };
  limit: number;
}

export interface SessionMessage {
  id: number;
  phone: string;
  /** The channel it went through. */
  route: string;
  /** Which of the channel's upstreams took it (an SMSC by name); '' when the channel is its own. */
  upstream: string;
  text: string;
  costCount: number;
  state: string;
  status: string;
  attempts: number;
  lastError: string;
  upstreamId: string;
  acceptedAt: number;
  submittedAt: number | undefined;
  receiptResult: ReceiptResult | undefined;
  receiptCode: string;
  receiptDesc: string;
  /** Unix seconds. */
  receiptTime: number | undefined;
  userId: string;
}

/** How many of a session's messages ended each way; `pending` are not final yet. */
export type SessionResults = Record<
  'Success' | 'Fail' | 'SubmitFail' | 'Unknow' | 'pending',
  number
>;

/** A session as the console lists it: when, how many, and how they ended so far. */
export interface SessionSummary {
  sessionNo: string;
  accountId: number;
  acceptedCount: number;
  createdAt: number;
  results: SessionResults;
}

export interface SessionView extends SessionSummary {
  /** The first messages of the session, in the order they were accepted. */
  messages: SessionMessage[];
}
