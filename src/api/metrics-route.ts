import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from './context.js';
import { adminGuard } from './admin/guard.js';

/**
 * GET /metrics in Prometheus' text format. It takes the admin key (Prometheus sends it with
 * `authorization: { credentials_file: … }`): queue depth and traffic are an operator's business,
 * and a gateway listening beyond loopback should not publish them.
 */
export function registerMetricsRoute(app: FastifyInstance, deps: ApiDeps): void {
  app.register(async (scoped) => {
    scoped.addHook('onRequest', adminGuard(deps.config.adminKey));
    scoped.get('/metrics', async (_request, reply) => {
      const { contentType, body } = await deps.metrics.exposition();
      return reply.type(contentType).send(body);
    });
  });
}
