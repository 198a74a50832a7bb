import type { FastifyInstance } from 'fastify';
import { WirebirdError } from '../domain/errors.js';
import { normalizePhone } from '../domain/phones/phones.js';
import { TemplateStatus } from '../domain/templates/template.js';
import type { ReviewAction } from '../domain/templates/template-review.js';
import { reviewById, reviewSignatureById } from '../review/review-by-id.js';
import { problemPage } from './console-auth.js';
import { accountScope, pageContext, sessionOf, type ConsoleContext } from './console-deps.js';
import { healthPage } from './health-page.js';
import { guardedRoute, sendPage as send, type Query } from './console-routes.js';
import { inboxPage } from './inbox-page.js';
import {
  RECENT_SESSIONS_SHOWN,
  SESSION_MESSAGES_SHOWN,
  sessionsPage,
  type Lookup,
} from './sessions-page.js';
import { templatesPage } from './templates-page.js';

const CONVERSATIONS_SHOWN = 200;
const ENTRIES_SHOWN = 200;
const PAST: Partial<Record<ReviewAction, string>> = {
  approve: 'approved',
  reject: 'rejected',
  disable: 'disabled',
};
const VERBS: Record<string, ReviewAction> = {
  approve: 'approve',
  reject: 'reject',
  disable: 'disable',
};

/** A query value, trimmed and bounded; a longer one is a mistake, answered as one. */
export function param(query: Query, name: string, max = 200): string {
  const raw: unknown = query[name];
  // ?q=a&q=b arrives as an array: one value is expected, so two is a mistake.
  if (raw !== undefined && typeof raw !== 'string')
    throw new WirebirdError('InvalidParameter', `${name} must be given once`);
  const v = (raw ?? '').trim();
  if (v.length > max)
    throw new WirebirdError('InvalidParameter', `${name} must be at most ${max} characters`);
  return v;
}

export function registerConsolePages(app: FastifyInstance, ctx: ConsoleContext): void {
  const { store } = ctx;
  const guarded = guardedRoute;

  app.get('/console', async (_request, reply) => reply.redirect('/console/inbox', 303));
  app.get('/console/', async (_request, reply) => reply.redirect('/console/inbox', 303));
  app.get(
    '/console/inbox',
    guarded(async (request, reply) => {
      const query = param(request.query, 'q');
      const accountId = accountScope(request);
      const conversations = await store.inboxConversations({
        accountId,
        query,
        limit: CONVERSATIONS_SHOWN,
      });
      const raw = param(request.query, 'phone', 64);
      const parsed = raw ? normalizePhone(raw, ctx.defaultRegion) : undefined;
      const phone = parsed?.ok ? parsed.e164 : raw || conversations[0]?.phone;
      const entries = phone
        ? await store.searchInbox({ accountId, phone, query, limit: ENTRIES_SHOWN })
        : [];
      const cleared =
        request.query.cleared === undefined ? undefined : Number(request.query.cleared) || 0;
      return send(
        reply,
        inboxPage(pageContext(ctx, request), {
          query,
          phone,
          conversations,
          entries: entries.reverse(),
          cleared,
        }),
      );
    }),
  );
  app.post(
    '/console/inbox/clear',
    guarded(async (request, reply) => {
      const n = await store.clearInbox(accountScope(request));
      return reply.redirect(`/console/inbox?cleared=${n}`, 303);
    }),
  );

  app.get(
    '/console/templates',
    guarded(async (request, reply) => {
      const raw = param(request.query, 'status', 1);
      const status = raw === '' ? undefined : parseStatus(raw);
      const filter = { status, accountId: accountScope(request) };
      const list = await store.listTemplates(filter);
      const signatures = await store.listSignatures(filter);
      const done = param(request.query, 'done', 20);
      const id = param(request.query, 'id', 64);
      const notice = done && id ? `${id}: ${done}` : undefined;
      const view = { list, signatures, status, notice };
      return send(reply, templatesPage(pageContext(ctx, request), view));
    }),
  );
  for (const [path, review] of [
    [
      'templates',
      (id: string, verb: ReviewAction, now: number, reason?: string) =>
        reviewById(store, id, verb, now, reason).then((t) => t.templateId),
    ],
    [
      'signatures',
      (id: string, verb: ReviewAction, now: number, reason?: string) =>
        reviewSignatureById(store, id, verb, now, reason).then((s) => s.sigId),
    ],
  ] as const) {
    app.post(
      `/console/${path}/:id/:verb`,
      guarded(async (request, reply) => {
        if (sessionOf(request).viewer.role !== 'admin')
          return problemPage(reply, 403, 'Refused', `Only the admin reviews ${path}.`);
        const verb = VERBS[request.params.verb ?? ''];
        if (!verb)
          throw new WirebirdError('NotFound', `no review operation ${request.params.verb}`);
        const reason = verb === 'reject' ? param(request.body ?? {}, 'reason', 500) : undefined;
        if (verb === 'reject' && !reason)
          throw new WirebirdError(
            'MissingParameter',
            `reason is required to reject a ${path.slice(0, -1)}`,
          );
        const id = await review(request.params.id ?? '', verb, ctx.clock.now(), reason);
        const done = new URLSearchParams({ done: PAST[verb] ?? verb, id });
        return reply.redirect(`/console/templates?${done}`, 303);
      }),
    );
  }

  app.get(
    '/console/sessions',
    guarded(async (request, reply) => {
      const id = param(request.query, 'id', 100);
      return send(
        reply,
        sessionsPage(pageContext(ctx, request), id, await lookup(ctx, id, accountScope(request))),
      );
    }),
  );

  app.get(
    '/console/health',
    guarded(async (request, reply) => {
      if (sessionOf(request).viewer.role !== 'admin')
        return problemPage(reply, 403, 'Refused', 'Health is for the admin.');
      const now = ctx.clock.now();
      const data = {
        now,
        rates: await ctx.history.rates(),
        channels: ctx.channels(),
        queue: await store.queueStats(now),
      };
      return send(reply, healthPage(pageContext(ctx, request), data));
    }),
  );
}

async function lookup(
  ctx: ConsoleContext,
  id: string,
  accountId: number | undefined,
): Promise<Lookup> {
  if (!id) {
    return {
      kind: 'none',
      recent: await ctx.store.recentSessions({ accountId, limit: RECENT_SESSIONS_SHOWN }),
    };
  }
  const session = await ctx.store.sessionView(id, accountId, SESSION_MESSAGES_SHOWN);
  if (session) return { kind: 'session', session };
  const message = await ctx.store.getBusinessMessage(id);
  if (message && (accountId === undefined || message.accountId === accountId))
    return { kind: 'business', message };
  return { kind: 'missing', id };
}

function parseStatus(raw: string): TemplateStatus {
  const n = Number(raw);
  if (!(Object.values(TemplateStatus) as number[]).includes(n))
    throw new WirebirdError('InvalidParameter', 'status must be 0 to 4');
  return n as TemplateStatus;
}
