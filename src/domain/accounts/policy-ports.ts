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
  /**
   * Adds a credit row to the ledger and answers it with the new balance, all in one transaction:
   * unless the key of `credit.idempotency` was taken within its window (its first answer is
   * given back) or, without `repeatReference`, an earlier credit of the account has the
   * Reference (that entry is given back). Either way nothing is added.
   */
  addCredit(accountId: number, credit: NewCredit, now: number): Promise<CreditOutcome>;
  /** The ledger, newest first, a page at a time (rows with an id below `beforeId`). */
  creditLedger(
    accountId: number,
    page: { limit: number; beforeId?: number },
  ): Promise<LedgerEntry[]>;
}

/** A credit an operator asks for (docs/accounts.md, "Prepaid credit"). */
export interface NewCredit {
  costCount: number;
  reference: string;
  /** Adds it even when an earlier credit of the account has this Reference. */
  repeatReference?: boolean;
  /** A retried request's key: the record is written with the credit, its answer made from it. */
  idempotency?: Omit<IdempotencyRecord, 'response'> & { answer: (added: CreditAdded) => string };
}

export interface CreditAdded {
  entry: LedgerEntry;
  balance: number;
}

export type CreditOutcome =
  | { added: CreditAdded }
  /** An earlier credit with the same Reference; nothing was added. */
  | { earlier: LedgerEntry }
  /** The key's first answer; nothing was added. */
  | { replayed: IdempotencyRecord };

/**
 * An idempotency record whose answer may depend on what the account's policy refused: the store
 * writes it in the acceptance's transaction, once the policy has decided.
 */
export interface IdempotencyDraft extends Omit<IdempotencyRecord, 'response'> {
  response: string | ((refused: readonly PolicyRefusal[]) => string);
}

/** What acceptance did: a twin with the key had won, or the batch was stored but for `refused`. */
export type AcceptOutcome = { raced: IdempotencyRecord } | { refused: PolicyRefusal[] };
