import type { FastifyInstance } from 'fastify';
import { invalid } from '../domain/errors.js';
import { changedSettings } from '../domain/opt-out/opt-out.js';
import { normalizePhone } from '../domain/phones/phones.js';
import { accountOf, consoleAudit, pageContext, type ConsoleContext } from './console-deps.js';
import { guardedRoute, sendPage } from './console-routes.js';
import { formReader, text } from './forms.js';
import { optOutsPage } from './opt-outs-page.js';
import { regionOfAccount } from '../core/sms-rules.js';

const SHOWN = 100;
const MAX_PASTED = 1000;

const ListQuery = formReader({ after: text(20), done: text(200) });
const AddForm = formReader({ phones: text(40_000) });
const RemoveForm = formReader({ phone: text(20) });
const SettingsForm = formReader({ out: text(2000), in: text(2000), exempt: text(5) });

/** The Opt-outs page (docs/opt-out.md): list, add, remove, and the account's keywords. */
export function registerOptOutsRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const { store } = ctx;
  app.get(
    '/console/opt-outs',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.query);
      const { after, done } = ListQuery(request.query);
      const page = await store.listOptOuts({
        accountId,
        limit: SHOWN,
        ...(after ? { after } : {}),
      });
      const settings = await store.optOutSettings(accountId);
      const view = { accountId, page, settings, notice: done };
      return sendPage(reply, optOutsPage(pageContext(ctx, request), view));
    }),
  );
  registerOptOutChanges(app, ctx);
}

const back = (accountId: number, done: string) =>
  `/console/opt-outs?${new URLSearchParams({ account: String(accountId), done }).toString()}`;

/** The forms: opt numbers out, remove one, save the keywords. */
function registerOptOutChanges(app: FastifyInstance, ctx: ConsoleContext): void {
  const { store } = ctx;
  const regionOf = (accountId: number) => regionOfAccount(store, accountId, ctx.defaultRegion);
  app.post(
    '/console/opt-outs',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.body);
      const phones = phonesOf(AddForm(request.body).phones, await regionOf(accountId));
      const now = ctx.clock.now();
      const list = phones.map((phone) => ({
        accountId,
        phone,
        source: 'console' as const,
        keyword: '',
        createdAt: now,
      }));
      const added = await store.addOptOuts(list, now);
      // Of length 1, so its first is there.
      const target = phones.length === 1 ? (phones[0] as string) : `${phones.length} numbers`;
      const fact = { action: 'opt_out.added', target, accountId, detail: { Added: added.length } };
      await consoleAudit(ctx, request, fact);
      return reply.redirect(back(accountId, `${added.length} numbers opted out`), 303);
    }),
  );
  app.post(
    '/console/opt-outs/remove',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.body);
      const { phone } = RemoveForm(request.body);
      const removed = await store.removeOptOuts(accountId, [phone], 'console', ctx.clock.now());
      await consoleAudit(ctx, request, { action: 'opt_out.removed', target: phone, accountId });
      return reply.redirect(
        back(
          accountId,
          removed.length ? `${phone} may be sent to again` : `${phone} was not opted out`,
        ),
        303,
      );
    }),
  );
  app.post(
    '/console/opt-outs/settings',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.body);
      const form = SettingsForm(request.body);
      const next = changedSettings(await store.optOutSettings(accountId), {
        optOutKeywords: words(form.out),
        optInKeywords: words(form.in),
        exemptVerification: form.exempt === 'on',
      });
      await store.setOptOutSettings(accountId, next);
      const fact = { action: 'opt_out.settings_changed', target: 'settings', accountId };
      await consoleAudit(ctx, request, fact);
      return reply.redirect(back(accountId, 'keywords saved'), 303);
    }),
  );
}

/** Numbers pasted one per line or separated by commas; a bad one refuses the whole form. */
function phonesOf(text: string, region: string): string[] {
  const raw = text
    .split(/[\n,;]+/)
    .map((p) => p.trim())
    .filter(Boolean);
  if (raw.length === 0) throw invalid('phones', 'is empty: paste one number per line');
  if (raw.length > MAX_PASTED)
    throw invalid('phones', `holds ${raw.length} numbers; at most ${MAX_PASTED} at a time`);
  return [
    ...new Set(
      raw.map((p) => {
        const read = normalizePhone(p, region);
        if (!read.ok) throw invalid('phones', `has ${p}, which ${read.reason}; nothing was added`);
        return read.e164;
      }),
    ),
  ];
}

function words(list: string): string[] {
  return list
    .split(',')
    .map((w) => w.trim())
    .filter(Boolean);
}
