import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { LIMIT_RANGES, MAX_RECIPIENT_HOURLY_LIMIT } from '../../domain/accounts/policy.js';
import {
  MAX_CREDIT,
  MAX_REFERENCE,
  addCredit,
  ledgerPage,
  policyAnswer,
  updatePolicy,
} from '../../core/account-policy.js';
import type { ApiDeps } from '../context.js';
import { Obj } from '../answer-schemas.js';
import { serveAdmin, type AdminInput, type AdminRoute } from './admin-route.js';
import { accountIdParam } from './guard.js';
import { hashOf } from '../idempotency.js';

const AccountParam = {
  accountId: { description: 'the account (a whole number from 1)', pattern: '^[0-9]{1,15}$' },
};

const range = (field: keyof typeof LIMIT_RANGES) => ({
  minimum: LIMIT_RANGES[field][0],
  maximum: LIMIT_RANGES[field][1],
});

const orNull = <T extends ReturnType<typeof Type.Integer>>(t: T, description: string) =>
  Type.Optional(Type.Union([t, Type.Null()], { description }));

/** The policy as the admin API takes it: a field left out is unchanged, null removes it. */
const PolicyChange = Type.Object(
  {
    Countries: Type.Optional(
      Type.Union([Type.Array(Type.String(), { maxItems: 300 }), Type.Null()], {
        description: 'ISO 3166-1 alpha-2 codes SMS may go to ("US", "GB"); null: anywhere',
      }),
    ),
    MaxPerSecond: orNull(
      Type.Integer(range('MaxPerSecond')),
      `a whole number from 1 to ${LIMIT_RANGES.MaxPerSecond[1]} (messages handed upstream per second, across all nodes; the rest wait), or null`,
    ),
    DailyLimit: orNull(
      Type.Integer(range('DailyLimit')),
      'a whole number from 0 (CostCount accepted per UTC day), or null',
    ),
    RecipientHourlyLimit: orNull(
      Type.Integer(range('RecipientHourlyLimit')),
      `a whole number from 1 to ${MAX_RECIPIENT_HOURLY_LIMIT} (messages to one number in any 60 minutes), or null`,
    ),
    Prepaid: Type.Optional(
      Type.Union([Type.Boolean(), Type.Null()], {
        description: 'each SMS is paid from the balance at acceptance; null: false',
      }),
    ),
  },
  { additionalProperties: false },
);

const nullable = (t: ReturnType<typeof Type.Integer>) => Type.Union([t, Type.Null()]);
export const PolicyAnswer = {
  AccountId: Type.Integer(),
  Countries: Type.Union([Type.Array(Type.String()), Type.Null()]),
  MaxPerSecond: nullable(Type.Integer()),
  DailyLimit: nullable(Type.Integer()),
  RecipientHourlyLimit: nullable(Type.Integer()),
  Prepaid: Type.Boolean(),
  Balance: Type.Integer({ description: 'the sum of the credit ledger, in CostCount' }),
  UsedToday: Type.Integer({ description: 'CostCount accepted today (UTC)' }),
  Day: Type.String({ description: 'today, UTC: 2026-11-28' }),
};

export const POLICY_ROUTES = {
  getPolicy: {
    method: 'GET',
    url: '/admin/accounts/:accountId/policy',
    summary: "The account's policy, its balance and today's CostCount.",
    params: AccountParam,
    answer: Obj(PolicyAnswer),
  },
  setPolicy: {
    audit: (i) => ({
      action: 'account.policy_set',
      target: String(i.params.accountId),
      accountId: Number(i.params.accountId),
      detail: i.body,
    }),
    method: 'PUT',
    url: '/admin/accounts/:accountId/policy',
    summary: "Changes the account's policy: a field left out is unchanged, null removes it.",
    params: AccountParam,
    body: PolicyChange,
    answer: Obj(PolicyAnswer),
  },
  addCredit: {
    audit: (i, a) => ({
      action: 'account.credited',
      target: String(a.AccountId),
      accountId: Number(a.AccountId),
      detail: { CostCount: a.CostCount, Reference: i.body.Reference },
    }),
    method: 'POST',
    url: '/admin/accounts/:accountId/credits',
    summary: "Adds credit (CostCount units) to the account's ledger.",
    params: AccountParam,
    body: Type.Object(
      {
        CostCount: Type.Integer({ minimum: 1, maximum: MAX_CREDIT }),
        Reference: Type.String({
          minLength: 1,
          maxLength: MAX_REFERENCE,
          description: 'yours: an invoice, a payment; a second credit with it is refused',
        }),
        RepeatReference: Type.Optional(
          Type.Boolean({ description: 'true adds it even when the Reference was credited before' }),
        ),
      },
      { additionalProperties: false },
    ),
    idempotent: true,
    answer: Obj({
      AccountId: Type.Integer(),
      CostCount: Type.Integer(),
      Balance: Type.Integer(),
      EntryId: Type.Integer({ description: "the credit's ledger entry" }),
    }),
    creates: true,
  },
  listCredits: {
    method: 'GET',
    url: '/admin/accounts/:accountId/credits',
    summary: "The account's credit ledger, newest first: credits, debits and refunds.",
    params: AccountParam,
    query: Type.Object({
      limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1 to 1000' })),
      before: Type.Optional(
        Type.String({ pattern: '^[0-9]{1,15}$', description: 'entries with an Id below this' }),
      ),
    }),
    answer: Obj({
      AccountId: Type.Integer(),
      Balance: Type.Integer(),
      Entries: Type.Array(
        Obj({
          Id: Type.Integer(),
          Kind: Type.String({ description: 'credit, debit or refund' }),
          CostCount: Type.Integer({ description: 'positive for credit and refunds' }),
          Reference: Type.String({ description: "the operator's, or the SessionNo" }),
          CreateTime: Type.Integer({ description: 'Unix seconds' }),
        }),
      ),
    }),
  },
} satisfies Record<string, AdminRoute>;

export function registerPolicyAdmin(app: FastifyInstance, deps: ApiDeps): void {
  const R = POLICY_ROUTES;
  const accountOf = (input: AdminInput) => accountIdParam(input.params.accountId ?? '');
  serveAdmin(app, deps, R.getPolicy, async (input) => policyAnswer(deps, accountOf(input)));
  serveAdmin(app, deps, R.setPolicy, async (input) =>
    updatePolicy(deps, accountOf(input), input.body),
  );
  serveAdmin(app, deps, R.addCredit, async (input) => {
    const accountId = accountOf(input);
    const body = {
      CostCount: input.body.CostCount,
      Reference: input.body.Reference,
      RepeatReference: input.body.RepeatReference,
    };
    const key = input.idempotencyKey;
    // The hash names the account, so one key sent for two accounts is two requests.
    const requestHash = key && hashOf({ ...body, AccountId: accountId });
    return addCredit(deps, accountId, body, key && requestHash ? { key, requestHash } : undefined);
  });
  serveAdmin(app, deps, R.listCredits, async (input) => {
    const limit = Math.min(Math.max(Number(input.query.limit ?? 100), 1), 1000);
    const before = input.query.before === undefined ? undefined : Number(input.query.before);
    return ledgerPage(deps, accountOf(input), {
      limit,
      ...(before === undefined ? {} : { beforeId: before }),
    });
  });
}
