/**
 * An account's sending policy (docs/accounts.md): the countries it may send SMS to, its dispatch
 * rate, its daily CostCount limit, the per-number hourly guard against SMS pumping, and prepaid
 * credit. Pure: the store reads the counters and writes what `applyPolicy` decides in the
 * acceptance's own transaction, so no interleaving of nodes can pass a limit.
 */

/** The rules, as metrics, events and logs name them. */
export const POLICY_RULES = [
  'countries',
  'daily_limit',
  'recipient_hourly_limit',
  'prepaid',
] as const;
export type PolicyRule = (typeof POLICY_RULES)[number];

/** The API's field for each rule. */
export const RULE_FIELDS: Record<PolicyRule, string> = {
  countries: 'Countries',
  daily_limit: 'DailyLimit',
  recipient_hourly_limit: 'RecipientHourlyLimit',
  prepaid: 'Prepaid',
};

export interface AccountPolicy {
  /** ISO 3166-1 alpha-2 codes SMS may go to; absent: anywhere. */
  countries?: readonly string[];
  /** Messages handed upstream per second at most, across all nodes; the rest wait. */
  maxPerSecond?: number;
  /** CostCount accepted per UTC day at most. */
  dailyLimit?: number;
  /** Messages to one number in any 60 minutes at most. */
  recipientHourlyLimit?: number;
  /** Each SMS is paid from the balance at acceptance. */
  prepaid: boolean;
}

/** The most RecipientHourlyLimit may be: it is a guard, and each number keeps that many times. */
export const MAX_RECIPIENT_HOURLY_LIMIT = 1000;

/** The whole numbers each numeric limit may be, from and to. */
export const LIMIT_RANGES = {
  MaxPerSecond: [1, 100_000],
  DailyLimit: [0, 1_000_000_000_000],
  RecipientHourlyLimit: [1, MAX_RECIPIENT_HOURLY_LIMIT],
} as const;
export const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The UTC day `at` (ms) falls in, as days since 1970: the daily limit's counter key. */
export function utcDay(at: number): number {
  return Math.floor(at / DAY_MS);
}

/** The day as ISO text (2026-11-28), as answers and events show it. */
export function dayText(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

/** What the counters hold before a batch, as the store read them (under its lock). */
export interface PolicyState {
  /** The sum of the ledger. */
  balance: number;
  /** CostCount accepted today (UTC). */
  usedToday: number;
  /**
   * Per number in the batch: the messages the account sent it in the hour before now, counted up
   * to RecipientHourlyLimit at least; a number absent was sent nothing.
   */
  recent: ReadonlyMap<string, number>;
  /** The earliest the next message may be due under MaxPerSecond (ms, fractional). */
  nextSlot: number;
}

/** What a batch needs to be decided: each message's number, country and cost. */
export interface PolicyItem {
  e164: string;
  country: string | undefined;
  costCount: number;
}

export interface PolicyRefusal {
  /** The message's place in the batch. */
  index: number;
  rule: PolicyRule;
  reason: string;
}

export interface PolicyDecision {
  refused: PolicyRefusal[];
  /** CostCount of the accepted messages: debited when prepaid, added to today's use always. */
  cost: number;
  /** Per accepted message (by index), its due time under MaxPerSecond; absent without one. */
  dueAts?: Map<number, number>;
  nextSlot: number;
}

/**
 * Decides, message by message in the batch's order, which the policy accepts: a refused message
 * costs nothing and counts for nothing, so a later, cheaper message may still fit. `dueAt` is
 * when the batch is due (SendAt, or now).
 */
export function applyPolicy(
  policy: AccountPolicy,
  state: PolicyState,
  items: readonly PolicyItem[],
  at: { now: number; dueAt: number },
): PolicyDecision {
  const d: PolicyDecision = { refused: [], cost: 0, nextSlot: state.nextSlot };
  const allowed = policy.countries && new Set(policy.countries);
  // What this batch accepts to each number, on top of what the hour before it sent.
  const sent = new Map<string, number>();
  const sentTo = (e164: string) => (state.recent.get(e164) ?? 0) + (sent.get(e164) ?? 0);
  items.forEach((item, index) => {
    const refusal = refusalOf(policy, state, d, { item, allowed, sentTo });
    if (refusal) {
      d.refused.push({ index, ...refusal });
      return;
    }
    d.cost += item.costCount;
    sent.set(item.e164, (sent.get(item.e164) ?? 0) + 1);
    if (policy.maxPerSecond !== undefined) pace(d, index, policy.maxPerSecond, at.dueAt);
  });
  return d;
}

/** Due at the batch's time or the next free slot, whichever is later; the slot moves on. */
function pace(d: PolicyDecision, index: number, perSecond: number, dueAt: number): void {
  const due = Math.max(dueAt, d.nextSlot);
  (d.dueAts ??= new Map()).set(index, Math.ceil(due));
  d.nextSlot = due + 1000 / perSecond;
}

function refusalOf(
  policy: AccountPolicy,
  state: PolicyState,
  d: PolicyDecision,
  c: { item: PolicyItem; allowed: Set<string> | undefined; sentTo: (e164: string) => number },
): Omit<PolicyRefusal, 'index'> | undefined {
  const { item } = c;
  if (c.allowed && !(item.country !== undefined && c.allowed.has(item.country))) {
    const where = item.country ?? 'a number of no country';
    return {
      rule: 'countries',
      reason: `${item.e164}: sending to ${where} is not enabled for this account (Countries)`,
    };
  }
  const limit = policy.recipientHourlyLimit;
  if (limit !== undefined && c.sentTo(item.e164) >= limit) {
    return {
      rule: 'recipient_hourly_limit',
      reason: `${item.e164}: RecipientHourlyLimit ${limit} reached: ${limit} messages to this number in the last hour`,
    };
  }
  const used = state.usedToday + d.cost;
  if (policy.dailyLimit !== undefined && used + item.costCount > policy.dailyLimit) {
    return {
      rule: 'daily_limit',
      reason: `daily limit ${policy.dailyLimit} reached (DailyLimit): ${used} CostCount used today (UTC); this message needs ${item.costCount}`,
    };
  }
  const balance = state.balance - d.cost;
  if (policy.prepaid && item.costCount > balance) {
    return {
      rule: 'prepaid',
      reason: `balance too low (Prepaid): ${Math.max(balance, 0)} CostCount left; this message needs ${item.costCount}; add credit`,
    };
  }
  return undefined;
}

/** Whether a policy needs the store's counters at all (Countries alone does not). */
export function needsCounters(policy: AccountPolicy): boolean {
  return (
    policy.prepaid ||
    policy.dailyLimit !== undefined ||
    policy.recipientHourlyLimit !== undefined ||
    policy.maxPerSecond !== undefined
  );
}

/** One row of an account's credit ledger: the balance is always their sum. */
export interface LedgerEntry {
  id: number;
  /** Positive for credit and refunds, negative for debits. */
  costCount: number;
  /** credit: added by an operator; debit: a session's SMS at acceptance; refund: one credited back. */
  kind: 'credit' | 'debit' | 'refund';
  /** The operator's Reference for credit; the SessionNo for a debit or refund. */
  reference: string;
  createdAt: number;
}

/** An account's policy with its counters, as GetAccountPolicy and the admin API answer it. */
export interface PolicyView {
  policy: AccountPolicy;
  balance: number;
  usedToday: number;
}
