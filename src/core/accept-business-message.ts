/**
 * Accepting a business message (WhatsApp or the simulator) for an account: the rules its contact
 * is checked against and how the accepted message is stored and announced. SendMessage is the
 * face that asks today; the rules live here so that another face would meet the same ones.
 */
import { RetCode, WirebirdError } from '../domain/errors.js';
import type { AcceptedBusinessMessage, IdempotencyRecord } from '../domain/messages/message.js';
import { optedOutReason } from '../domain/opt-out/opt-out.js';
import type { Clock, Store } from '../domain/ports.js';
import type { BusinessPhone } from '../domain/accounts/account.js';
import {
  TEMPLATE_TYPE,
  windowClosesAt,
  windowGuarded,
} from '../domain/business-messages/conversation.js';
import { optedOut } from './sms-rules.js';

export interface BusinessIntake {
  store: Pick<Store, 'acceptBusinessMessage' | 'optedOutAmong' | 'lastInbound'>;
  clock: Clock;
  /** Told of the message stored, after its commit, as SmsIntake's `accepted` is. */
  accepted: (routes: readonly string[], held: boolean) => void;
  /** Told of a message stored failed already, whose fallback is due at once. */
  fallbackDue: () => void;
}

/** Refuses a contact (E.164) the account may not message: one that opted out. */
export async function checkBusinessContact(
  intake: BusinessIntake,
  accountId: number,
  e164: string,
): Promise<void> {
  if ((await optedOut(intake.store, accountId, [e164])).size > 0) {
    throw new WirebirdError('OptedOut', optedOutReason(e164, RetCode.OptedOut));
  }
}

/**
 * Why a message of `type` may not go to the contact now, or undefined when it may: on a business
 * phone held to the 24-hour window, only a template goes to a contact whose last message to that
 * phone is older than the window, or who never wrote.
 */
export async function windowRefusal(
  intake: BusinessIntake,
  phone: BusinessPhone,
  message: { type: string; e164: string; dueAt?: number },
): Promise<string | undefined> {
  if (message.type === TEMPLATE_TYPE || !windowGuarded(phone)) return undefined;
  // A scheduled message goes at its SendAt: the window must still be open then.
  const sendsAt = message.dueAt ?? intake.clock.now();
  const last = await intake.store.lastInbound(phone.businessPhone, message.e164);
  if (last !== undefined && sendsAt < windowClosesAt(last)) return undefined;
  const rule = 'outside the window only a template may be sent (Type template)';
  if (last === undefined)
    return `${message.e164} has not written to ${phone.businessPhone}; ${rule}`;
  const closesAt = windowClosesAt(last);
  const at = new Date(closesAt).toISOString();
  const since =
    closesAt > intake.clock.now()
      ? `the 24-hour window with ${message.e164} closes at ${at}, before SendAt`
      : `the 24-hour window with ${message.e164} closed at ${at}`;
  return `${since}; ${rule}`;
}

/**
 * Stores the message durably, then announces it. Answers the record of a concurrent twin with the
 * same Idempotency-Key that won the race (nothing is stored then, and nothing announced).
 */
export async function storeBusinessMessage(
  intake: BusinessIntake,
  message: Omit<AcceptedBusinessMessage, 'acceptedAt'>,
  idempotency: IdempotencyRecord | undefined,
): Promise<IdempotencyRecord | undefined> {
  const accepted = { ...message, acceptedAt: intake.clock.now() };
  const raced = await intake.store.acceptBusinessMessage(accepted, idempotency);
  if (raced) return raced;
  intake.accepted([message.route], message.dueAt !== undefined);
  // One accepted failed (outside the window) is not dispatched: its fallback goes at once.
  if (message.failure) intake.fallbackDue();
  return undefined;
}
