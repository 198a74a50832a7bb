/**
 * replace_sm on SMS still queued: the held rows read, the new text charged to the account
 * (domain/accounts/replace-charge.ts), then one UPDATE setting only what the change names. The
 * `state = 'queued'` guard is the claim's own, so a replace never races a submit: a message
 * already claimed is not changed, and the ESME is told so. Both dialects run these texts; they
 * differ only in the placeholder and in how the rows are locked.
 */
import { policyOf, POLICY_COLUMNS, type PolicyRow } from './policy.js';
import type { HeldChange } from '../../domain/messages/schedule.js';
import {
  replaceDelta,
  type ReplaceCharge,
  type ReplaceState,
} from '../../domain/accounts/replace-charge.js';
import type { AccountPolicy } from '../../domain/accounts/policy.js';
import { paramList } from './params.js';

type Placeholder = (n: number) => string;

/** The held rows of the session a change may touch. */
function heldWhere(
  param: (v: unknown) => string,
  accountId: number,
  sessionNo: string,
  c: HeldChange,
): string {
  const where = [
    `session_no = ${param(sessionNo)}`,
    `account_id = ${param(accountId)}`,
    "kind = 'sms'",
    "state = 'queued'",
    // An ESME's own part carries its UDH's place in the whole: a new text would break it.
    'concat IS NULL',
  ];
  if (c.senderId !== undefined) where.push(`sender_id = ${param(c.senderId)}`);
  return where.join(' AND ');
}

/** The CostCount of each held row the change would touch; `lock` appends the dialect's lock. */
export function heldCostsSql(
  p: Placeholder,
  accountId: number,
  sessionNo: string,
  c: HeldChange & { lock?: string },
): { sql: string; values: unknown[] } {
  const { values, param } = paramList(p);
  const where = heldWhere(param, accountId, sessionNo, c);
  return { sql: `SELECT cost_count FROM messages WHERE ${where} ${c.lock ?? ''}`, values };
}

/** The statement and its values; `p(n)` writes the dialect's n-th placeholder. */
export function replaceSql(
  p: Placeholder,
  accountId: number,
  sessionNo: string,
  c: HeldChange,
): { sql: string; values: unknown[] } {
  const { values, param } = paramList(p);
  const set = [`receipt_to = ${param(c.receiptTo)}`];
  if (c.text) set.push(`body = ${param(c.text.body)}`, `cost_count = ${param(c.text.costCount)}`);
  if (c.dueAt !== undefined) set.push(`due_at = ${param(c.dueAt)}`);
  if (c.expiresAt !== undefined) set.push(`expires_at = ${param(c.expiresAt)}`);
  const where = heldWhere(param, accountId, sessionNo, c);
  return { sql: `UPDATE messages SET ${set.join(', ')} WHERE ${where}`, values };
}

/**
 * Parameters: session, day, account (in the order they appear: SQLite's `?` is positional). The
 * policy, today's use, and whether the session was paid from the balance.
 */
export function replaceCountersSql(p: Placeholder): string {
  return `SELECT ${POLICY_COLUMNS},
      (SELECT count(*) FROM credit_ledger l WHERE l.reference = ${p(1)} AND l.kind = 'debit'
        AND l.account_id = a.account_id) AS paid,
      u.cost_count AS used
    FROM account_policies a LEFT JOIN account_usage u
      ON u.account_id = a.account_id AND u.day = ${p(2)}
    WHERE a.account_id = ${p(3)}`;
}

export type ReplaceCountersRow = PolicyRow & {
  used: number | string | null;
  paid: number | string;
};

/** The policy and the counters a replace is charged against; no policy: nothing to charge. */
export function replaceStateOf(row: ReplaceCountersRow | undefined): {
  policy: AccountPolicy | undefined;
  state: ReplaceState;
} {
  if (!row) return { policy: undefined, state: { balance: 0, usedToday: 0, paid: false } };
  const state = {
    balance: Number(row.balance),
    usedToday: Number(row.used ?? 0),
    paid: Number(row.paid) > 0,
  };
  return { policy: policyOf(row), state };
}

/** Parameters: account, day, CostCount: today's use grows by what a replace added. */
function replaceUsageSql(p: Placeholder): string {
  return `INSERT INTO account_usage (account_id, day, cost_count) VALUES (${p(1)},${p(2)},${p(3)})
    ON CONFLICT (account_id, day) DO UPDATE
    SET cost_count = account_usage.cost_count + excluded.cost_count`;
}

/** Parameters: account, CostCount (negative for a debit), kind, session, time. */
function replaceLedgerSql(p: Placeholder): string {
  return `INSERT INTO credit_ledger (account_id, cost_count, kind, reference, created_at)
    VALUES (${p(1)},${p(2)},${p(3)},${p(4)},${p(5)})`;
}

/** Parameters: debit (negative to give back), account. */
function replaceBalanceSql(p: Placeholder): string {
  return `UPDATE account_policies SET balance = balance - ${p(1)} WHERE account_id = ${p(2)}`;
}

/** The statements that write a replace's charge, in order; none when it costs nothing. */
export function replaceChargeWrites(
  p: Placeholder,
  charge: ReplaceCharge,
  at: { accountId: number; sessionNo: string; day: number; now: number },
): { sql: string; values: unknown[] }[] {
  const writes: { sql: string; values: unknown[] }[] = [];
  if (charge.used > 0) {
    writes.push({ sql: replaceUsageSql(p), values: [at.accountId, at.day, charge.used] });
  }
  if (charge.debit !== 0) {
    const kind = charge.debit > 0 ? 'debit' : 'refund';
    const entry = [at.accountId, -charge.debit, kind, at.sessionNo, at.now];
    writes.push({ sql: replaceLedgerSql(p), values: entry });
    writes.push({ sql: replaceBalanceSql(p), values: [charge.debit, at.accountId] });
  }
  return writes;
}

/** The change in CostCount of the held rows read by heldCostsSql; 0 when the text is kept. */
export function heldDelta(rows: readonly { cost_count: number | string }[], c: HeldChange): number {
  if (!c.text) return 0;
  return replaceDelta(
    rows.map((r) => Number(r.cost_count)),
    c.text.costCount,
  );
}
