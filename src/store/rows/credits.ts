/**
 * An operator's credit (docs/accounts.md, "Prepaid credit"): the statements both dialects run in
 * its one transaction, in this order. A retried request is answered from its idempotency record;
 * a Reference credited before is answered with its entry, unless the operator asked to repeat it.
 */
import type { CreditAdded, NewCredit } from '../../domain/accounts/policy-ports.js';
import { ledgerEntryOf, type LedgerRow } from './policy.js';

type Placeholder = (n: number) => string;

/** Parameters: account, now. The policy row a balance lives in, made if there is none. */
export const ensurePolicySql = (p: Placeholder) =>
  `INSERT INTO account_policies (account_id, updated_at) VALUES (${p(1)},${p(2)})
   ON CONFLICT (account_id) DO NOTHING`;

/** Parameters: account, key, not before. The key's record within its window. */
export const findKeySql = (p: Placeholder) =>
  `SELECT account_id, idem_key, request_hash, response, created_at FROM idempotency_keys
   WHERE account_id = ${p(1)} AND idem_key = ${p(2)} AND created_at >= ${p(3)}`;

/** Parameters: account, Reference. The first credit of the account with this Reference. */
export const earlierCreditSql = (p: Placeholder) =>
  `SELECT id, cost_count, kind, reference, created_at FROM credit_ledger
   WHERE account_id = ${p(1)} AND kind = 'credit' AND reference = ${p(2)} ORDER BY id LIMIT 1`;

/** Parameters: account, CostCount, Reference, now. */
export const insertCreditSql = (p: Placeholder) =>
  `INSERT INTO credit_ledger (account_id, cost_count, kind, reference, created_at)
   VALUES (${p(1)},${p(2)},'credit',${p(3)},${p(4)}) RETURNING id`;

/** Parameters: CostCount, account. */
export const raiseBalanceSql = (p: Placeholder) =>
  `UPDATE account_policies SET balance = balance + ${p(1)} WHERE account_id = ${p(2)}
   RETURNING balance`;

/** Parameters: account, key, request hash, answer, now. An expired record is written over. */
export const takeKeySql = (p: Placeholder) =>
  `INSERT INTO idempotency_keys (account_id, idem_key, request_hash, response, created_at)
   VALUES (${p(1)},${p(2)},${p(3)},${p(4)},${p(5)})
   ON CONFLICT (account_id, idem_key) DO UPDATE SET request_hash = excluded.request_hash,
     response = excluded.response, created_at = excluded.created_at`;

export function earlierEntry(row: LedgerRow | undefined) {
  return row && ledgerEntryOf(row);
}

/** The credit as added, for its answer and its idempotency record. */
export function creditAdded(
  accountId: number,
  c: NewCredit,
  written: { id: number | string; balance: number | string; now: number },
): { added: CreditAdded; key?: unknown[] } {
  const entry = {
    id: Number(written.id),
    costCount: c.costCount,
    kind: 'credit' as const,
    reference: c.reference,
    createdAt: written.now,
  };
  const added = { entry, balance: Number(written.balance) };
  const idem = c.idempotency;
  if (!idem) return { added };
  const key = [accountId, idem.key, idem.requestHash, idem.answer(added), written.now];
  return { added, key };
}
