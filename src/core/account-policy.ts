/**
 * Account policy as operators set it and accounts read it (docs/accounts.md): the admin API, the
 * CLI (through it), the console and GetAccountPolicy all call these, so the policy reads and
 * answers one way. The limits themselves are applied in acceptance (core/accept-sms.ts → store).
 */
import {
  LIMIT_RANGES,
  dayText,
  utcDay,
  type AccountPolicy,
  type LedgerEntry,
} from '../domain/accounts/policy.js';
import { WirebirdError, invalid } from '../domain/errors.js';
import { isKnownRegion } from '../domain/phones/phones.js';
import type { Clock, Store } from '../domain/ports.js';
import type { CreditAdded } from '../domain/accounts/policy-ports.js';
import { replay } from '../domain/messages/idempotency-window.js';

type PolicyDeps = {
  store: Pick<
    Store,
    'accountExists' | 'accountPolicy' | 'setAccountPolicy' | 'addCredit' | 'creditLedger'
  >;
  clock: Clock;
};

/** The fields PUT /admin/accounts/:id/policy takes; each may be null, which removes it. */
export const POLICY_FIELDS = [
  'Countries',
  'MaxPerSecond',
  'DailyLimit',
  'RecipientHourlyLimit',
  'Prepaid',
] as const;

/** The policy and its counters as every face answers them. */
export async function policyAnswer(
  deps: PolicyDeps,
  accountId: number,
): Promise<Record<string, unknown>> {
  const day = utcDay(deps.clock.now());
  const { policy, balance, usedToday } = await deps.store.accountPolicy(accountId, day);
  return {
    AccountId: accountId,
    Countries: policy.countries ? [...policy.countries] : null,
    MaxPerSecond: policy.maxPerSecond ?? null,
    DailyLimit: policy.dailyLimit ?? null,
    RecipientHourlyLimit: policy.recipientHourlyLimit ?? null,
    Prepaid: policy.prepaid,
    Balance: balance,
    UsedToday: usedToday,
    Day: dayText(day),
  };
}

/**
 * Applies a change to the account's policy: a field left out is unchanged, null removes the
 * limit. Every value is checked here, naming the field, whichever face it came from.
 */
export async function updatePolicy(
  deps: PolicyDeps,
  accountId: number,
  change: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  await mustExist(deps, accountId);
  const current = await deps.store.accountPolicy(accountId, 0);
  const next: AccountPolicy = { ...current.policy };
  for (const field of POLICY_FIELDS) {
    if (field in change) applyField(next, field, change[field]);
  }
  await deps.store.setAccountPolicy(accountId, next, deps.clock.now());
  return policyAnswer(deps, accountId);
}

function applyField(p: AccountPolicy, field: (typeof POLICY_FIELDS)[number], v: unknown): void {
  // `field in LIMIT_RANGES` makes it one of its keys.
  const n = field in LIMIT_RANGES ? limitOf(field as keyof typeof LIMIT_RANGES, v) : undefined;
  switch (field) {
    case 'Countries':
      if (v === null) delete p.countries;
      else p.countries = countriesOf(v);
      return;
    case 'MaxPerSecond':
      p.maxPerSecond = n;
      return;
    case 'DailyLimit':
      p.dailyLimit = n;
      return;
    case 'RecipientHourlyLimit':
      p.recipientHourlyLimit = n;
      return;
    case 'Prepaid':
      if (v !== null && typeof v !== 'boolean')
        throw invalid('Prepaid', 'must be true, false or null');
      p.prepaid = v === true;
  }
}

/** A limit's value: a whole number in its range, or null (undefined here) to remove it. */
function limitOf(field: keyof typeof LIMIT_RANGES, v: unknown): number | undefined {
  if (v === null) return undefined;
  const [min, max] = LIMIT_RANGES[field];
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw invalid(
      field,
      `must be a whole number from ${min} to ${max}, or null to remove the limit`,
    );
  }
  return v;
}

/** Upper-cased, each once, each a region a phone number can belong to. */
function countriesOf(codes: unknown): string[] {
  if (!Array.isArray(codes)) {
    throw invalid('Countries', 'must be a list of country codes such as ["US", "GB"], or null');
  }
  const seen = new Set<string>();
  codes.forEach((raw: unknown, i) => {
    const code = typeof raw === 'string' ? raw.toUpperCase() : '';
    if (!/^[A-Z]{2}$/.test(code) || !isKnownRegion(code)) {
      throw invalid(
        `Countries.${i}`,
        `${JSON.stringify(raw)} is not an ISO 3166-1 alpha-2 country code with phone numbers (such as "US" or "GB")`,
      );
    }
    seen.add(code);
  });
  return [...seen].sort();
}

/** The most one credit may add: the ledger's sums stay exact integers far beyond it. */
export const MAX_CREDIT = 1_000_000_000_000;
export const MAX_REFERENCE = 200;

/** A retried request's Idempotency-Key, and a hash of the request it came with. */
export interface CreditKey {
  key: string;
  requestHash: string;
}

/**
 * Adds credit to the ledger; answers the new balance. Every face hands the values as it got
 * them (CostCount a number from JSON, or digits as typed in a form or a flag), so one place says
 * what a credit may be. A retry is never credited twice (docs/accounts.md, "Prepaid credit"):
 * with an Idempotency-Key it answers the first answer; a Reference credited before is refused,
 * naming that entry, unless RepeatReference is true.
 */
export async function addCredit(
  deps: PolicyDeps,
  accountId: number,
  input: { CostCount: unknown; Reference: unknown; RepeatReference?: unknown },
  key?: CreditKey,
): Promise<Record<string, unknown>> {
  const credit = creditOf(input);
  await mustExist(deps, accountId);
  const now = deps.clock.now();
  const answer = ({ entry, balance }: CreditAdded) => ({
    AccountId: accountId,
    CostCount: entry.costCount,
    Balance: balance,
    EntryId: entry.id,
  });
  const idempotency = key && {
    accountId,
    // A client's key is visible ASCII: the space keeps credits apart from the account's sends.
    key: `credit ${key.key}`,
    requestHash: key.requestHash,
    createdAt: now,
    answer: (added: CreditAdded) => JSON.stringify(answer(added)),
  };
  const outcome = await deps.store.addCredit(
    accountId,
    { ...credit, ...(idempotency ? { idempotency } : {}) },
    now,
  );
  if ('replayed' in outcome) return replay(key?.requestHash ?? '', outcome.replayed);
  if ('earlier' in outcome) throw creditedBefore(accountId, outcome.earlier);
  return answer(outcome.added);
}

function creditedBefore(accountId: number, e: LedgerEntry): WirebirdError {
  const at = new Date(e.createdAt).toISOString();
  return new WirebirdError(
    'StateConflict',
    `Reference ${JSON.stringify(e.reference)} was credited to account ${accountId} already: ledger entry ${e.id}, ${e.costCount} CostCount at ${at}; nothing was added. To add it again, send "RepeatReference": true`,
  );
}

function creditOf(input: { CostCount: unknown; Reference: unknown; RepeatReference?: unknown }): {
  costCount: number;
  reference: string;
  repeatReference: boolean;
} {
  const typed = input.CostCount;
  const n = typeof typed === 'string' && /^\d+$/.test(typed) ? Number(typed) : typed;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > MAX_CREDIT) {
    throw invalid('CostCount', `must be a whole number from 1 to ${MAX_CREDIT}`);
  }
  const reference = typeof input.Reference === 'string' ? input.Reference.trim() : '';
  if (reference === '' || reference.length > MAX_REFERENCE) {
    throw invalid(
      'Reference',
      `must be 1 to ${MAX_REFERENCE} characters: your invoice or payment reference`,
    );
  }
  const repeat = input.RepeatReference ?? false;
  if (typeof repeat !== 'boolean') throw invalid('RepeatReference', 'must be true or false');
  return { costCount: n, reference, repeatReference: repeat };
}

/** A page of the ledger, newest first, as the API answers it. */
export async function ledgerPage(
  deps: PolicyDeps,
  accountId: number,
  page: { limit: number; beforeId?: number },
): Promise<Record<string, unknown>> {
  await mustExist(deps, accountId);
  const rows = await deps.store.creditLedger(accountId, page);
  const { balance } = await deps.store.accountPolicy(accountId, 0);
  return { AccountId: accountId, Balance: balance, Entries: rows.map(entryAnswer) };
}

function entryAnswer(e: LedgerEntry): Record<string, unknown> {
  return {
    Id: e.id,
    Kind: e.kind,
    CostCount: e.costCount,
    Reference: e.reference,
    CreateTime: Math.floor(e.createdAt / 1000),
  };
}

async function mustExist(deps: PolicyDeps, accountId: number): Promise<void> {
  if (!(await deps.store.accountExists(accountId))) {
    throw new WirebirdError('NotFound', `no account ${accountId}: create it with a key first`);
  }
}
