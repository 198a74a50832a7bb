/**
 * Time as part of a message (docs/api.md, "SendAt and ValidityPeriod"): when it is due, when it
 * expires unless handed upstream first, and how a held message ends when it expires or is
 * cancelled. Such messages cost nothing: their CostCount is 0.
 */
import { invalid } from '../errors.js';

/** A SendAt this close (or in the past) sends now: clocks differ by a few seconds. */
export const SEND_NOW_WITHIN_MS = 5_000;
export const VALIDITY_MIN_S = 30;
export const VALIDITY_MAX_S = 259_200;
export const VALIDITY_RULE = `a whole number of seconds from ${VALIDITY_MIN_S} to ${VALIDITY_MAX_S}`;

/**
 * Why a validity of `s` seconds (from when the message is due) is refused, one rule for every
 * face: HTTP's ValidityPeriod and SMPP's validity_period alike; undefined when it is taken.
 */
export function validityRefusal(s: number): string | undefined {
  return s < VALIDITY_MIN_S || s > VALIDITY_MAX_S ? `must be ${VALIDITY_RULE}` : undefined;
}

export const EXPIRED_CODE = 'EXPIRED';
export const EXPIRED_DESC = 'not handed upstream within its ValidityPeriod';
/**
 * The business-message status told (history and `message.status`) when one is accepted held for
 * a later SendAt. The row's status stays `accepted`: the reports that follow rank from there.
 */
export const SCHEDULED = 'scheduled';

export const CANCELED_CODE = 'CANCELED';
export const CANCELED_DESC = 'canceled before it was handed upstream';

export interface Schedule {
  /** Absent: due at once. */
  dueAt?: number;
  expiresAt?: number;
}

/** A request's SendAt and ValidityPeriod, as read by the Actions' schemas (whole numbers). */
export interface ScheduleFields {
  SendAt?: number;
  ValidityPeriod?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * When a message is due and when it expires: SendAt (Unix seconds) in the past or within a few
 * seconds sends now; past the limit it is refused. ValidityPeriod counts from SendAt, or from
 * acceptance when there is none.
 */
export function scheduleOf(f: ScheduleFields, now: number, maxDays: number): Schedule {
  let dueAt: number | undefined;
  if (f.SendAt !== undefined) {
    const at = f.SendAt * 1000;
    if (at > now + maxDays * DAY_MS) {
      const latest = Math.floor((now + maxDays * DAY_MS) / 1000);
      // Unix milliseconds of a time within the limit read as seconds lie thousands of years on;
      // seconds are below 10^11 until the year 5138.
      const asMs = f.SendAt >= 1e11 && f.SendAt <= now + maxDays * DAY_MS;
      const ms = asMs ? '; it looks like milliseconds: send seconds' : '';
      throw invalid('SendAt', `must be at most ${maxDays} days ahead (at most ${latest})${ms}`);
    }
    if (at > now + SEND_NOW_WITHIN_MS) dueAt = at;
  }
  if (f.ValidityPeriod === undefined) return dueAt === undefined ? {} : { dueAt };
  const refused = validityRefusal(f.ValidityPeriod);
  if (refused) throw invalid('ValidityPeriod', refused);
  const expiresAt = (dueAt ?? now) + f.ValidityPeriod * 1000;
  return { ...(dueAt === undefined ? {} : { dueAt }), expiresAt };
}

/**
 * What replace_sm changes of a held SMS; each field left out is kept. `receiptTo` is always
 * given: SMPP's registered_delivery is the new setting, not "keep".
 */
export interface HeldChange {
  /** Only messages from this sender (source_addr) are changed. */
  senderId?: string;
  text?: { body: string; costCount: number };
  dueAt?: number;
  expiresAt?: number;
  receiptTo: string | null;
}
