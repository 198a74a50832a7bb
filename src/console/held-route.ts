import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { invalid } from '../domain/errors.js';
import type { HeldFilter } from '../domain/views/views.js';
import {
  accountOf,
  accountScope,
  consoleAudit,
  pageContext,
  type ConsoleContext,
} from './console-deps.js';
import { guardedRoute, sendPage, type PageRequest } from './console-routes.js';
import { formReader, text } from './forms.js';
import { heldPage } from './held-page.js';

const SHOWN = 100;

const ListQuery = formReader({
  account: text(16),
  session: text(100),
  due: text(30),
  after: text(40),
  done: text(200),
});
const CancelForm = formReader({ id: text(100), kind: text(10), phone: text(20) });

/** The Scheduled page: messages held for a later SendAt, and a Cancel for each. */
export function registerHeldRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  app.get(
    '/console/held',
    guardedRoute(async (request, reply) => {
      const q = ListQuery(request.query);
      const accountId = accountFilter(request, q.account);
      const filter: HeldFilter = {
        now: ctx.clock.now(),
        limit: SHOWN,
        ...(accountId === undefined ? {} : { accountId }),
        ...(q.session ? { sessionNo: q.session } : {}),
        ...(q.due ? { dueBefore: utcOf(q.due) } : {}),
        ...(q.after ? { after: cursorOf(q.after) } : {}),
      };
      const held = await ctx.store.heldMessages(filter);
      const last = held.length === SHOWN ? held[SHOWN - 1] : undefined;
      const next =
        last && new URLSearchParams({ ...q, done: '', after: `${last.dueAt}.${last.id}` });
      const view = { accountId, session: q.session, due: q.due, held, notice: q.done };
      return sendPage(
        reply,
        heldPage(pageContext(ctx, request), { ...view, next: next?.toString() }),
      );
    }),
  );
  app.post(
    '/console/held/cancel',
    guardedRoute((request, reply) => cancel(ctx, request, reply)),
  );
}

/** The account's own for an account; for the admin the one asked, or every account. */
function accountFilter(request: FastifyRequest, asked: string): number | undefined {
  const own = accountScope(request);
  if (own !== undefined || asked === '') return own;
  return accountOf(request, { account: asked });
}

/** A datetime-local value, read as UTC (the page says so). */
function utcOf(value: string): number {
  const ms = Date.parse(/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d)?$/.test(value) ? `${value}Z` : '');
  if (Number.isNaN(ms)) throw invalid('due', 'must be a date and time in UTC, as 2026-11-29T09:00');
  return ms;
}

function cursorOf(after: string): { dueAt: number; id: number } {
  const m = /^(\d{1,15})\.(\d{1,15})$/.exec(after);
  if (!m) throw invalid('after', "must be the 'More' link's value");
  return { dueAt: Number(m[1]), id: Number(m[2]) };
}

/** Cancels one held message: an SMS by its session and number, a business one by its id. */
async function cancel(ctx: ConsoleContext, request: PageRequest, reply: FastifyReply) {
  const accountId = accountOf(request, request.body);
  const { id, kind, phone } = CancelForm(request.body);
  if (id === '') throw invalid('id', 'names the session or MessageId to cancel');
  const now = ctx.clock.now();
  const canceled =
    kind === 'business'
      ? Number(await ctx.store.cancelQueuedBusiness(accountId, id, now))
      : await ctx.store.cancelQueued(accountId, id, phone === '' ? undefined : phone, now);
  const target = kind === 'business' ? id : `${id} ${phone}`.trim();
  await consoleAudit(ctx, request, {
    action: 'message.canceled',
    target,
    accountId,
    detail: { Canceled: canceled },
  });
  const done =
    canceled > 0 ? `Canceled: ${target}` : `${target} was not held any more: nothing canceled`;
  const back = new URLSearchParams({
    done,
    ...(accountScope(request) === undefined ? { account: String(accountId) } : {}),
  });
  return reply.redirect(`/console/held?${back.toString()}`, 303);
}
