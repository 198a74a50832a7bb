/**
 * A business message as part of a conversation (docs/whatsapp.md): WhatsApp takes a free-form
 * message only within 24 hours of the contact's last message to that business phone, and a
 * business message may fall back to an SMS when it fails or is not delivered in time.
 */
import type { PolicyRule } from '../accounts/policy.js';
import type { AcceptedBatch } from '../messages/message.js';

/** How long after a contact's last message a free-form message may still be sent. */
export const WINDOW_MS = 24 * 60 * 60 * 1000;

/** The one content type WhatsApp takes outside the window. */
export const TEMPLATE_TYPE = 'template';

/** The Graph API's error for a free-form message outside the window. */
export const OUTSIDE_WINDOW_CODE = '131047';

/** Whether a business phone's free-form messages are held to the window. */
export function windowGuarded(phone: { channel: string; windowGuard?: boolean }): boolean {
  // Meta enforces it on WhatsApp; the simulator only when asked, so a first text just works.
  return phone.windowGuard ?? phone.channel === 'whatsapp';
}

/** When a contact's window closes (or closed), from the time of its last message. */
export function windowClosesAt(lastInboundAt: number): number {
  return lastInboundAt + WINDOW_MS;
}

/** The bounds of Fallback.After, in seconds. */
export const FALLBACK_AFTER_MIN_S = 10;
export const FALLBACK_AFTER_MAX_S = 86_400;

/** The SMS a business message falls back to, as SendMessage's Fallback names it. */
export interface FallbackSpec {
  templateId: string;
  params: readonly string[];
  /** '' for the account's default sender. */
  senderId: string;
  /** Seconds after acceptance without `delivered` that fire it too; absent: on failure only. */
  afterS?: number;
}

/**
 * pending: may still fire; sent: its SMS is stored (sessionNo); unneeded: the message was
 * delivered first; failed: it fired but no SMS could be accepted (reason).
 */
export type FallbackState = 'pending' | 'sent' | 'unneeded' | 'failed';

/** A business message's fallback as GetMessage answers it. */
export interface FallbackView {
  state: FallbackState;
  sessionNo?: string;
  phone?: string;
  reason: string;
}

/** A pending fallback whose message failed, was delivered, or whose After has passed. */
export interface DueFallback extends FallbackSpec {
  messageId: string;
  accountId: number;
  /** The business message's recipient, as the caller wrote it and in E.164. */
  to: string;
  e164: string;
  businessPhone: string;
  /** The business message's status now. */
  status: string;
  /** Acceptance + After, when After was given. */
  dueAt?: number;
}

/** What became of a due fallback: the SMS session stored with it, or why none was. */
export type FallbackOutcome =
  | { state: 'sent'; batch: AcceptedBatch; reason: string }
  | {
      state: 'unneeded' | 'failed';
      reason: string;
      /** Failed because the account's policy refused its SMS: the rule (docs/accounts.md). */
      rule?: PolicyRule;
    };

/** The message statuses that prove delivery: a fallback is no longer needed. */
export const DELIVERED_STATUSES: readonly string[] = ['delivered', 'read'];
