/**
 * Accepting SMS for an account: the one path every face takes. The JSON API and the UCloud dialect
 * (SendBatchUSMSMessage, SendUSMSMessage) and the SMPP server (submit_sm, submit_multi) each read
 * their own request into numbers and texts; the facts the numbers are checked against, and how
 * the accepted messages are stored and announced, are here once, so that a rule added to
 * acceptance holds on every face. The CLI and the console send through the JSON API.
 */
import type { AcceptedSms } from '../domain/messages/message.js';
import type { PolicyRefusal, PolicyRule } from '../domain/accounts/policy.js';
import type { ConcatPart } from '../domain/messages/concat.js';
import type { TaskCountModal } from '../domain/batches/batch.js';
import { planBatch, type BatchPlan } from '../domain/batches/plan-batch.js';
import { normalizePhone, type PhoneResult } from '../domain/phones/phones.js';
import type { Clock, Routing, Store } from '../domain/ports.js';
import type { AcceptOutcome, IdempotencyDraft } from '../domain/accounts/policy-ports.js';
import { optOutsOf, regionOfAccount } from './sms-rules.js';

/** What accepting SMS needs, whichever face asks. */
export interface SmsIntake {
  store: Pick<
    Store,
    | 'acceptBatch'
    | 'accountRegion'
    | 'optedOutAmong'
    | 'optOutSettings'
    | 'hasSenderIds'
    | 'getTemplates'
  >;
  clock: Clock;
  routing: Routing;
  /** The region national numbers are read in when the account names none. */
  gatewayRegion: string;
  /** The most segments one message may have. */
  maxSegments: number;
  /** How far ahead a message may be scheduled. */
  maxScheduleDays: number;
  newSessionNo: () => string;
  /**
   * Told of the messages stored, after their commit: the metric, and unless they are `held`
   * for a later SendAt the dispatcher's nudge (a held message wakes no one: a claim would find
   * nothing due, and on SQLite take the write lock to find it).
   */
  accepted: (routes: readonly string[], held: boolean) => void;
  /** Told of the numbers the account's policy refused, by rule (metrics). */
  refused: (accountId: number, rule: PolicyRule, count: number) => void;
}

/** A request's numbers as the account's rules read them. */
export interface Recipients<T> {
  /** The region the account's numbers without a country code are read in. */
  region: string;
  /** Each item of the request beside its number as read. */
  read: { item: T; phone: PhoneResult }[];
  /** The numbers (E.164) among them that opted out of the account's messages. */
  optedOut: ReadonlySet<string>;
  /** Whether verification codes (templates of Purpose 1) still reach numbers that opted out. */
  verificationExempt: boolean;
}

/** Reads each item's number in the account's region and finds which of them opted out. */
export async function readRecipients<T>(
  intake: SmsIntake,
  accountId: number,
  items: readonly T[],
  phoneOf: (item: T, region: string) => PhoneResult,
): Promise<Recipients<T>> {
  const region = await regionOfAccount(intake.store, accountId, intake.gatewayRegion);
  const read = items.map((item) => ({ item, phone: phoneOf(item, region) }));
  const numbers = read.flatMap((r) => (r.phone.ok ? [r.phone.e164] : []));
  const outs = await optOutsOf(intake.store, accountId, numbers);
  return { region, read, ...outs };
}

/** The sender ids among `named` that are registered for the account. */
export async function registeredSenders(
  intake: SmsIntake,
  accountId: number,
  named: readonly (string | undefined)[],
): Promise<ReadonlySet<string>> {
  const senderIds = [...new Set(named.filter((s): s is string => !!s))];
  return senderIds.length === 0 ? new Set() : intake.store.hasSenderIds(accountId, senderIds);
}

/** The upstream an SMS to `e164` from `senderId` is sent through. */
export function smsRoute(intake: SmsIntake, e164: string, senderId: string): string {
  return intake.routing.smsRoute(e164, senderId);
}

/**
 * Plans templated SMS (SendBatchUSMSMessage's groups, and a business message's SMS fallback):
 * the account's templates and senders, its recipients in its region with their opt-outs, each
 * number checked by planBatch. Answers what is accepted and what failed, with why.
 */
export async function planGroups(
  intake: SmsIntake,
  accountId: number,
  groups: readonly TaskCountModal[],
): Promise<BatchPlan> {
  const targets = groups.flatMap((g) => g.Target);
  const recipients = await readRecipients(intake, accountId, targets, (t, region) =>
    normalizePhone(t.Phone, region),
  );
  const templateIds = [...new Set(groups.map((g) => g.TemplateId))];
  const named = groups.flatMap((g) => [g.SenderId, ...g.Target.map((t) => t.SenderId)]);
  const templates = await intake.store.getTemplates(accountId, templateIds);
  return planBatch(groups, {
    templates: new Map(templates.map((t) => [t.templateId, t])),
    senderIds: await registeredSenders(intake, accountId, named),
    defaultRegion: recipients.region,
    maxSegments: intake.maxSegments,
    route: (e164: string, senderId: string) => smsRoute(intake, e164, senderId),
    optedOut: recipients.optedOut,
    verificationExempt: recipients.verificationExempt,
  });
}

/** Messages a face accepted, as one session. */
export interface SmsSession {
  accountId: number;
  /** Made by the caller, as its answer (and the idempotency record) already names it. */
  sessionNo: string;
  messages: readonly AcceptedSms[];
  /** The system_id of the SMPP bind that asked for receipts. */
  receiptTo?: string;
  /** Set when the one message is a part the ESME split itself. */
  concat?: ConcatPart;
  /** SendAt: held until then. */
  dueAt?: number;
  /** ValidityPeriod: not sent unless handed upstream by then. */
  expiresAt?: number;
}

/**
 * Stores the session, with the Idempotency-Key's record where there is one, durably in one
 * transaction, then announces it. The account's policy may refuse some of its messages (answered
 * in `refused`, by their place in the session): those are not stored. Answers the record of a
 * concurrent twin with the same key that won the race (nothing is stored then, nor announced).
 */
export async function storeSms(
  intake: SmsIntake,
  session: SmsSession,
  idempotency?: IdempotencyDraft,
): Promise<AcceptOutcome> {
  const batch = { ...session, acceptedAt: intake.clock.now() };
  const outcome = await intake.store.acceptBatch(batch, idempotency);
  if ('raced' in outcome) return outcome;
  const refusedAt = new Set(outcome.refused.map((r) => r.index));
  const routes = session.messages.filter((_, i) => !refusedAt.has(i)).map((m) => m.route);
  if (routes.length > 0) intake.accepted(routes, session.dueAt !== undefined);
  for (const [rule, n] of countByRule(outcome.refused)) intake.refused(session.accountId, rule, n);
  return outcome;
}

function countByRule(refused: readonly PolicyRefusal[]): Map<PolicyRule, number> {
  const counts = new Map<PolicyRule, number>();
  for (const r of refused) counts.set(r.rule, (counts.get(r.rule) ?? 0) + 1);
  return counts;
}
