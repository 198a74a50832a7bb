import type { FastifyInstance } from 'fastify';
import { problemPage } from './console-auth.js';
import { pageContext, sessionOf, type ConsoleContext } from './console-deps.js';
import { guardedRoute as guarded, sendPage as send } from './console-routes.js';
import { healthPage } from './health-page.js';

/** The admin's Health page: rates, channels and the queue. */
export function registerHealthRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
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
        queue: await ctx.store.queueStats(now),
        smppBinds: ctx.smppBinds?.(),
      };
      return send(reply, healthPage(pageContext(ctx, request), data));
    }),
  );
}
