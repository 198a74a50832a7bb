import type { FastifyInstance } from 'fastify';
import { accountScope, pageContext, type ConsoleContext } from './console-deps.js';
import { guardedRoute as guarded, sendPage as send } from './console-routes.js';
import { formReader, text } from './forms.js';
import {
  RECENT_SESSIONS_SHOWN,
  SESSION_MESSAGES_SHOWN,
  sessionsPage,
  type Lookup,
} from './sessions-page.js';

const SessionQuery = formReader({ id: text(100) });

/** The Sessions page: recent sessions, or the session (or business message) asked for. */
export function registerSessionsRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  app.get(
    '/console/sessions',
    guarded(async (request, reply) => {
      const { id } = SessionQuery(request.query);
      return send(
        reply,
        sessionsPage(pageContext(ctx, request), id, await lookup(ctx, id, accountScope(request))),
      );
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
  // accountId undefined: the operator's console, which sees every account's messages.
  const message = await ctx.store.getBusinessMessage(id, accountId ?? 'any');
  if (message) return { kind: 'business', message };
  return { kind: 'missing', id };
}
