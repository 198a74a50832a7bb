/**
 * The store's side of account policy (docs/accounts.md): the operator's reads and writes, and what
 * acceptance answers once the policy decided. Part of the Store (domain/ports.ts).
 */
import type { IdempotencyRecord } from '../messages/message.js';
import type { AccountPolicy, LedgerEntry, PolicyRefusal, PolicyView } from './policy.js';

/** The operator's side of account policy (docs/accounts.md). */
export interface AccountPolicyStore {
  /** The policy (no limits when none was set), the ledger's balance and `day`'s CostCount. */
  accountPolicy(accountId: number, day: number): Promise<PolicyView>;
  setAccountPolicy(accountId: number, policy: AccountPolicy, now: number): Promise<void>;
  /** Adds a credit row to the ledger; answers the new balance. */
  addCredit(
    accountId: number,
    credit: { costCount: number; reference: string },
    now: number,
  ): Promise<number>;
  /** The ledger, newest first, a page at a time (rows with an id below `beforeId`). */
  creditLedger(
    accountId: number,
    page: { limit: number; beforeId?: number },
  ): Promise<LedgerEntry[]>;
}

/**
 * An idempotency record whose answer may depend on what the account's policy refused: the store
 * writes it in the acceptance's transaction, once the policy has decided.
 */
export interface IdempotencyDraft extends Omit<IdempotencyRecord, 'response'> {
  response: string | ((refused: readonly PolicyRefusal[]) => string);
}

/** What acceptance did: a twin with the key had won, or the batch was stored but for `refused`. */
export type AcceptOutcome = { raced: IdempotencyRecord } | { refused: PolicyRefusal[] };
