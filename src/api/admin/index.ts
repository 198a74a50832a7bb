import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../context.js';
import { registerAccountAdmin } from './accounts.js';
import { checkText } from '../text-check.js';
import { adminGuard, sendAdminError } from './guard.js';
import { registerInboundAdmin } from './inbound.js';
import { registerMessageAdmin } from './messages.js';
import { registerTemplateAdmin } from './templates.js';
import { registerUcloudKeyAdmin } from './ucloud-keys.js';
import { registerSmppCredentialAdmin } from './smpp-credentials.js';

/** Everything under /admin takes the admin key. */
export function registerAdminRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.register(async (admin) => {
    admin.addHook('onRequest', adminGuard(deps.config.adminKey));
    // Text both stores keep alike, as on /api: no NUL, no lone surrogate.
    admin.addHook('preHandler', async (request, reply) => {
      try {
        checkText(request.body);
      } catch (err) {
        return sendAdminError(reply, err);
      }
    });
    registerTemplateAdmin(admin, deps);
    registerAccountAdmin(admin, deps);
    registerMessageAdmin(admin, deps);
    registerUcloudKeyAdmin(admin, deps);
    registerInboundAdmin(admin, deps);
    registerSmppCredentialAdmin(admin, deps);
  });
}
