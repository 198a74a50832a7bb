import {
  RULE_FIELDS,
  applyPolicy,
  HOUR_MS,
  dayText,
  type AccountPolicy,
  type LedgerEntry,
  type PolicyDecision,
  type PolicyRefusal,
  type PolicyRule,
  type PolicyState,
} from '../../domain/accounts/policy.js';
import type { NewEvent } from '../../domain/events/event.js';
import type {
  AcceptedBatch,
  AcceptedSms,
  IdempotencyRecord,
} from '../../domain/messages/message.js';
import type { IdempotencyDraft } from '../../domain/accounts/policy-ports.js';
import type { FallbackOutcome } from '../../domain/business-messages/conversation.js';

/** account_policies as both dialects read it. */
export interface PolicyRow {
  countries: string | null;
  max_per_second: number | null;
  daily_limit: number | null;
  recipient_hourly_limit: number | null;
  prepaid: number | boolean;
  balance: number | string;
  next_slot: number | string;
}

export const POLICY_COLUMNS =
  'countries, max_per_second, daily_limit, recipient_hourly_limit, prepaid, balance, next_slot';

export function policyOf(row: PolicyRow): AccountPolicy {
  const p: AccountPolicy = { prepaid: row.prepaid === true || row.prepaid === 1 };
  if (row.countries !== null) p.countries = row.countries === '' ? [] : row.countries.split(',');
  if (row.max_per_second !== null) p.maxPerSecond = row.max_per_second;
  if (row.daily_limit !== null) p.dailyLimit = row.daily_limit;
  if (row.recipient_hourly_limit !== null) p.recipientHourlyLimit = row.recipient_hourly_limit;
  return p;
}

/** The policy's columns in POLICY_COLUMNS' order, without balance and next_slot. */
export function policyValues(p: AccountPolicy): unknown[] {
  return [
    p.countries ? p.countries.join(',') : null,
    p.maxPerSecond ?? null,
    p.dailyLimit ?? null,
    p.recipientHourlyLimit ?? null,
  ];
}

/**
 * The hourly guard's question for the store, per number of the batch: how many SMS the account
 * was accepted to it after `since`. Each store answers it from the messages' (e164, account_id,
 * kind, accepted_at) index, so the guard writes nothing of its own.
 */
export interface RecentQuestion {
  since: number;
  /** The batch's distinct numbers, as one JSON array for the one statement that counts them. */
  numbers: string;
}

export function recentQuestion(batch: AcceptedBatch): RecentQuestion {
  const numbers = JSON.stringify([...new Set(batch.messages.map((m) => m.e164))]);
  return { since: batch.acceptedAt - HOUR_MS, numbers };
}

/** What acceptance writes for a policy: the batch it keeps, the counters, the events. */
export interface PolicyWrites {
  decision: PolicyDecision;
  /**
   * The accepted messages, each with its paced due time where MaxPerSecond gave one; the batch
   * itself when the policy refused and paced nothing.
   */
  batch: AcceptedBatch;
  day: number;
  /** Whether the accepted messages are paid from the balance. */
  prepaid: boolean;
  /** Rules reached for the first time today: their events, and the new `told` text. */
  events: NewEvent[];
  told: string;
}

/**
 * Decides a batch under its account's policy and says what to write: the dialects differ only in
 * how they read and write the counters, not in what the counters mean.
 */
export function policyWrites(
  batch: AcceptedBatch,
  policy: AccountPolicy,
  state: PolicyState & { day: number; told: string },
): PolicyWrites {
  const now = batch.acceptedAt;
  const decision = applyPolicy(policy, state, batch.messages, {
    now,
    dueAt: batch.dueAt ?? now,
  });
  const same = decision.refused.length === 0 && decision.dueAts === undefined;
  const told = new Set(state.told === '' ? [] : state.told.split(','));
  const events: NewEvent[] = [];
  for (const r of firstOfEachRule(decision.refused)) {
    if (r.rule === 'countries' || told.has(r.rule)) continue;
    told.add(r.rule);
    const balance = state.balance - decision.cost;
    events.push(
      limitReached(batch.accountId, policy, { day: state.day, balance, rule: r.rule, now }),
    );
  }
  return {
    decision,
    // The same batch when the policy changed nothing of it: a caller may tell by identity.
    batch: same ? batch : { ...batch, messages: asDecided(batch, decision) },
    day: state.day,
    prepaid: policy.prepaid,
    events,
    told: [...told].join(','),
  };
}

/** The messages the decision accepted, each with its paced due time where it has one. */
function asDecided(batch: AcceptedBatch, decision: PolicyDecision): AcceptedSms[] {
  const refusedAt = new Set(decision.refused.map((r) => r.index));
  const batchDue = batch.dueAt ?? batch.acceptedAt;
  const messages: AcceptedSms[] = [];
  batch.messages.forEach((m, i) => {
    if (refusedAt.has(i)) return;
    const dueAt = decision.dueAts?.get(i);
    messages.push(dueAt === undefined || dueAt === batchDue ? m : { ...m, dueAt });
  });
  return messages;
}

function firstOfEachRule(refused: readonly PolicyRefusal[]): PolicyRefusal[] {
  const seen = new Map<PolicyRule, PolicyRefusal>();
  for (const r of refused) if (!seen.has(r.rule)) seen.set(r.rule, r);
  return [...seen.values()];
}

/** account.limit_reached: once per rule and UTC day (docs/events.md). */
function limitReached(
  accountId: number,
  policy: AccountPolicy,
  s: { rule: PolicyRule; day: number; balance: number; now: number },
): NewEvent {
  const limit =
    s.rule === 'daily_limit'
      ? policy.dailyLimit
      : s.rule === 'recipient_hourly_limit'
        ? policy.recipientHourlyLimit
        : undefined;
  return {
    accountId,
    type: 'account.limit_reached',
    at: s.now,
    data: {
      Rule: RULE_FIELDS[s.rule],
      ...(limit === undefined ? {} : { Limit: limit }),
      ...(s.rule === 'prepaid' ? { Balance: s.balance } : {}),
      Day: dayText(s.day),
    },
  };
}

export interface LedgerRow {
  id: number | string;
  cost_count: number | string;
  kind: string;
  reference: string;
  created_at: number | string;
}

export function ledgerEntryOf(r: LedgerRow): LedgerEntry {
  return {
    id: Number(r.id),
    costCount: Number(r.cost_count),
    // Only the store writes the column, with one of these three.
    kind: r.kind as LedgerEntry['kind'],
    reference: r.reference,
    createdAt: Number(r.created_at),
  };
}

/** The idempotency record as written, its answer told what the policy refused. */
export function settledRecord(
  idem: IdempotencyDraft,
  refused: readonly PolicyRefusal[],
): IdempotencyRecord {
  const response = typeof idem.response === 'string' ? idem.response : idem.response(refused);
  return { ...idem, response };
}

/**
 * A fallback's SMS as the account's policy leaves it: sent as it was, or, refused, a failed
 * fallback that says which rule refused it.
 */
export function policedFallback(
  outcome: Extract<FallbackOutcome, { state: 'sent' }>,
  w: PolicyWrites | undefined,
): FallbackOutcome {
  if (!w) return outcome;
  const refusal = w.decision.refused[0];
  if (w.batch.messages.length > 0 || !refusal) return { ...outcome, batch: w.batch };
  const reason = `${outcome.reason}; no SMS was sent: ${refusal.reason}`;
  return { state: 'failed', reason, rule: refusal.rule };
}
