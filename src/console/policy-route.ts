import type { FastifyInstance } from 'fastify';
import { addCredit, ledgerPage, policyAnswer, updatePolicy } from '../core/account-policy.js';
import {
  accountOf,
  adminOnly,
  consoleAudit,
  pageContext,
  type ConsoleContext,
} from './console-deps.js';
import { guardedRoute, sendPage } from './console-routes.js';
import { formReader, text } from './forms.js';
import { policyPage } from './policy-page.js';

const SHOWN = 20;
const PageQuery = formReader({ done: text(200) });
const PolicyForm = formReader({
  countries: text(1000),
  maxPerSecond: text(20),
  dailyLimit: text(20),
  recipientHourlyLimit: text(20),
  prepaid: text(5),
});
const CreditForm = formReader({ costCount: text(20), reference: text(200) });

/** A limit as typed in a form: empty removes it; what is not a whole number core refuses. */
const limit = (raw: string): number | null => (raw === '' ? null : Number(raw));

const back = (accountId: number, done: string) =>
  `/console/policy?${new URLSearchParams({ account: String(accountId), done }).toString()}`;

/** The Policy page (docs/accounts.md): an account reads its own; the admin changes any. */
export function registerPolicyRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  app.get(
    '/console/policy',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.query);
      const { done } = PageQuery(request.query);
      const policy = await policyAnswer(ctx, accountId);
      const exists = await ctx.store.accountExists(accountId);
      const ledger = exists ? await ledgerPage(ctx, accountId, { limit: SHOWN }) : undefined;
      // ledgerPage answers Entries as a list of fields.
      const entries = (ledger?.Entries ?? []) as Record<string, unknown>[];
      const view = { accountId, policy, entries, notice: done };
      return sendPage(reply, policyPage(pageContext(ctx, request), view));
    }),
  );
  app.post(
    '/console/policy',
    guardedRoute(async (request, reply) => {
      adminOnly(request, 'changes a policy');
      const accountId = accountOf(request, request.body);
      const f = PolicyForm(request.body);
      const change = {
        Countries: f.countries === '' ? null : f.countries.split(/[\s,]+/).filter((c) => c),
        MaxPerSecond: limit(f.maxPerSecond),
        DailyLimit: limit(f.dailyLimit),
        RecipientHourlyLimit: limit(f.recipientHourlyLimit),
        Prepaid: f.prepaid !== '',
      };
      await updatePolicy(ctx, accountId, change);
      const fact = { action: 'account.policy_set', target: String(accountId), accountId };
      await consoleAudit(ctx, request, { ...fact, detail: change });
      return reply.redirect(back(accountId, 'Policy saved'), 303);
    }),
  );
  app.post(
    '/console/policy/credit',
    guardedRoute(async (request, reply) => {
      adminOnly(request, 'adds credit');
      const accountId = accountOf(request, request.body);
      const f = CreditForm(request.body);
      const answer = await addCredit(ctx, accountId, {
        CostCount: f.costCount,
        Reference: f.reference,
      });
      const detail = { CostCount: answer.CostCount, Reference: f.reference.trim() };
      await consoleAudit(ctx, request, {
        action: 'account.credited',
        target: String(accountId),
        accountId,
        detail,
      });
      return reply.redirect(
        back(accountId, `Credit added: balance ${String(answer.Balance)}`),
        303,
      );
    }),
  );
}
