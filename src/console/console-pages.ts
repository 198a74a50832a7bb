import type { FastifyInstance } from 'fastify';
import type { ConsoleContext } from './console-deps.js';
import { registerHealthRoutes } from './health-route.js';
import { registerInboxRoutes } from './inbox-route.js';
import { registerSessionsRoutes } from './sessions-route.js';
import { registerTemplatesRoutes } from './templates-route.js';
import { registerWebhooksRoutes } from './webhooks-route.js';
import { registerOptOutsRoutes } from './opt-outs-route.js';
import { registerPolicyRoutes } from './policy-route.js';
import { registerHeldRoutes } from './held-route.js';

/** The console's pages after login, each page's routes in a module of its own. */
export function registerConsolePages(app: FastifyInstance, ctx: ConsoleContext): void {
  app.get('/console', async (_request, reply) => reply.redirect('/console/inbox', 303));
  app.get('/console/', async (_request, reply) => reply.redirect('/console/inbox', 303));
  registerInboxRoutes(app, ctx);
  registerTemplatesRoutes(app, ctx);
  registerSessionsRoutes(app, ctx);
  registerHeldRoutes(app, ctx);
  registerWebhooksRoutes(app, ctx);
  registerOptOutsRoutes(app, ctx);
  registerPolicyRoutes(app, ctx);
  registerHealthRoutes(app, ctx);
}
