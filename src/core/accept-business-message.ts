/**
 * Accepting a business message (WhatsApp or the simulator) for an account: the rules its contact
 * is checked against and how the accepted message is stored and announced. SendMessage is the
 * face that asks today; the rules live here so that another face would meet the same ones.
 */
import { RetCode, WirebirdError } from '../domain/errors.js';
import type { AcceptedBusinessMessage, IdempotencyRecord } from '../domain/messages/message.js';
import { optedOutReason } from '../domain/opt-out/opt-out.js';
import type { Clock, Store } from '../domain/ports.js';
import { optedOut } from './sms-rules.js';

export interface BusinessIntake {
  store: Pick<Store, 'acceptBusinessMessage' | 'optedOutAmong'>;
  clock: Clock;
  /** Told of the message stored, after its commit: the metric and the dispatcher's nudge. */
  accepted: (routes: readonly string[]) => void;
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
  intake.accepted([message.route]);
  return undefined;
}
