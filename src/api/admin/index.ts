import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../context.js';
import type { AdminRoute } from './admin-route.js';
import { ACCOUNT_ROUTES, registerAccountAdmin } from './accounts.js';
import { POLICY_ROUTES, registerPolicyAdmin } from './policy.js';
import { API_KEY_ROUTES, registerApiKeyAdmin } from './api-keys.js';
import { CONSOLE_SESSION_ROUTES, registerConsoleSessionAdmin } from './console-sessions.js';
import { AUDIT_ROUTES, registerAuditAdmin } from './audit.js';
import { checkText } from '../text-check.js';
import { adminGuard, sendAdminError } from './guard.js';
import { INBOUND_ROUTES, registerInboundAdmin } from './inbound.js';
import { MESSAGE_ROUTES, registerMessageAdmin } from './messages.js';
import { SIGNATURE_ROUTES, TEMPLATE_ROUTES, registerTemplateAdmin } from './templates.js';
import { UCLOUD_KEY_ROUTES, registerUcloudKeyAdmin } from './ucloud-keys.js';
import { SMPP_CREDENTIAL_ROUTES, registerSmppCredentialAdmin } from './smpp-credentials.js';

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
    registerPolicyAdmin(admin, deps);
    registerApiKeyAdmin(admin, deps);
    registerConsoleSessionAdmin(admin, deps);
    registerAuditAdmin(admin, deps);
    registerMessageAdmin(admin, deps);
    registerUcloudKeyAdmin(admin, deps);
    registerInboundAdmin(admin, deps);
    registerSmppCredentialAdmin(admin, deps);
  });
}

/** `prefix` + each route's name: the operationIds of docs/openapi.json. */
function named(prefix: string, routes: Record<string, AdminRoute>): Record<string, AdminRoute> {
  return Object.fromEntries(
    Object.entries(routes).map(([name, r]) => [
      `${prefix}${name[0]?.toUpperCase()}${name.slice(1)}`,
      r,
    ]),
  );
}

/** Every route of the admin API, by operationId. */
export const ADMIN_ROUTES: Record<string, AdminRoute> = {
  ...named('account', ACCOUNT_ROUTES),
  ...named('account', POLICY_ROUTES),
  ...named('apiKey', API_KEY_ROUTES),
  ...named('consoleSession', CONSOLE_SESSION_ROUTES),
  ...named('audit', AUDIT_ROUTES),
  ...named('template', TEMPLATE_ROUTES),
  ...named('signature', SIGNATURE_ROUTES),
  ...named('message', MESSAGE_ROUTES),
  ...named('inbound', INBOUND_ROUTES),
  ...named('ucloudKey', UCLOUD_KEY_ROUTES),
  ...named('smppCredential', SMPP_CREDENTIAL_ROUTES),
};
