import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../context.js';
import { registerAccountAdmin } from './accounts.js';
import { adminGuard } from './guard.js';
import { registerMessageAdmin } from './messages.js';
import { registerTemplateAdmin } from './templates.js';
import { registerUcloudKeyAdmin } from './ucloud-keys.js';

/** Everything under /admin takes the admin key. */
export function registerAdminRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.register(async (admin) => {
    admin.addHook('onRequest', adminGuard(deps.config.adminKey));
    registerTemplateAdmin(admin, deps);
    registerAccountAdmin(admin, deps);
    registerMessageAdmin(admin, deps);
    registerUcloudKeyAdmin(admin, deps);
  });
}
