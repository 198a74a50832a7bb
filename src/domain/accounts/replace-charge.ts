/**
 * What replacing the text of held SMS costs (docs/accounts.md, "Replacing a held message"): a
 * replace_sm is charged and counted like the submit it changes, so a cancel, which credits back
 * the CostCount a message has when it ends, refunds exactly what was paid. Pure: the store reads
 * the counters under its lock and writes what this decides in the replace's own transaction.
 */
import type { AccountPolicy } from './policy.js';

export interface ReplaceRefusal {
  rule: 'daily_limit' | 'prepaid';
  reason: string;
}

/** What a replace writes to the account's counters. */
export interface ReplaceCharge {
  /** CostCount added to today's use; never less than 0 (a cancel does not lower it either). */
  used: number;
  /** Taken from the balance (a debit), or given back when below 0 (a refund); 0 when unpaid. */
  debit: number;
}

/** The counters as the store read them, and whether the session was paid from the balance. */
export interface ReplaceState {
  balance: number;
  usedToday: number;
  /** The session has a debit in the ledger: only then is its change paid, or refunded. */
  paid: boolean;
}

/**
 * Charges `delta`, the held messages' new CostCount less their old, or refuses the replace. A
 * session accepted before its account was prepaid was not paid for, so neither is its change:
 * charging it would make its cancel refund what was never debited.
 */
export function replaceCharge(
  policy: AccountPolicy | undefined,
  state: ReplaceState,
  delta: number,
): ReplaceCharge | ReplaceRefusal {
  if (delta <= 0) return { used: 0, debit: state.paid ? delta : 0 };
  const limit = policy?.dailyLimit;
  if (limit !== undefined && state.usedToday + delta > limit) {
    return {
      rule: 'daily_limit',
      reason: `daily limit ${limit} reached (DailyLimit): ${state.usedToday} CostCount used today (UTC); the new text needs ${delta} more`,
    };
  }
  if (state.paid && delta > state.balance) {
    return {
      rule: 'prepaid',
      reason: `balance too low (Prepaid): ${Math.max(state.balance, 0)} CostCount left; the new text needs ${delta} more; add credit`,
    };
  }
  return { used: policy ? delta : 0, debit: state.paid ? delta : 0 };
}

/** The change in CostCount when each of `held` takes a text of `costCount` parts. */
export function replaceDelta(held: readonly number[], costCount: number): number {
  return held.reduce((d, old) => d + costCount - old, 0);
}
