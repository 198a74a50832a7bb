import type { FastifyInstance } from 'fastify';
import { invalid } from '../domain/errors.js';
import {
  createEndpoint,
  deleteEndpoint,
  replay,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
  type WebhookScope,
} from '../api/webhooks-service.js';
import { accountOf, pageContext, type ConsoleContext } from './console-deps.js';
import { guardedRoute, param, sendPage, type PageRequest, type Query } from './console-routes.js';
import { deliveryPage, webhooksPage, type Shown } from './webhooks-page.js';

const DELIVERIES_SHOWN = 50;

/**
 * The Webhooks page (docs/console.md): an account's endpoints, their latest deliveries, a
 * delivery's attempts and body, and the buttons that do what the webhook Actions do.
 */
export function registerWebhooksRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  const scope = (accountId: number): WebhookScope => ({
    store: ctx.store,
    clock: ctx.clock,
    newEndpointId: ctx.newEndpointId,
    graceMs: ctx.secretGraceMs,
    events: ctx.webhooks,
    accountId,
  });
  const show = async (request: PageRequest, accountId: number, shown?: Shown) => {
    const endpoints = await ctx.store.listEndpoints(accountId);
    const { deliveries } = await ctx.store.listDeliveries({ accountId, limit: DELIVERIES_SHOWN });
    const view = { accountId, endpoints, deliveries, ...(shown ? { shown } : {}) };
    return webhooksPage(pageContext(ctx, request), view);
  };
  app.get(
    '/console/webhooks',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.query);
      const done = param(request.query, 'done', 100);
      return sendPage(reply, await show(request, accountId, done ? { notice: done } : undefined));
    }),
  );
  app.post(
    '/console/webhooks',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.body);
      const body = request.body ?? {};
      const { endpoint, secret } = await createEndpoint(scope(accountId), {
        url: param(body, 'url', 2048),
        eventTypes: checked(body, 'types'),
        description: param(body, 'description', 256),
      });
      // A page, not a redirect: the secret must not travel in a URL.
      const shown = { secret: { endpointId: endpoint.endpointId, value: secret } };
      return sendPage(
        reply.header('cache-control', 'no-store'),
        await show(request, accountId, shown),
      );
    }),
  );
  app.post(
    '/console/webhooks/:endpointId/:verb',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.body);
      const endpointId = request.params.endpointId ?? '';
      const s = scope(accountId);
      const verb = request.params.verb ?? '';
      if (verb === 'rotate') {
        const { secret } = await rotateSecret(s, endpointId);
        const shown = { secret: { endpointId, value: secret } };
        return sendPage(
          reply.header('cache-control', 'no-store'),
          await show(request, accountId, shown),
        );
      }
      const done = await endpointVerb(s, endpointId, verb, request.body ?? {});
      const q = new URLSearchParams({ account: String(accountId), done });
      return reply.redirect(`/console/webhooks?${q}`, 303);
    }),
  );
  app.get(
    '/console/webhooks/deliveries/:endpointId/:eventId',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.query);
      const endpointId = request.params.endpointId ?? '';
      const eventId = Number(request.params.eventId);
      const [delivery] = (
        await ctx.store.listDeliveries({ accountId, endpointId, eventId, limit: 1 })
      ).deliveries;
      if (!delivery) throw invalid('eventId', 'names no delivery of this account');
      const attempts = await ctx.store.deliveryAttempts(accountId, endpointId, eventId);
      const body = (await ctx.store.eventBody(accountId, eventId)) ?? '';
      const view = { accountId, delivery, attempts, body };
      return sendPage(reply, deliveryPage(pageContext(ctx, request), view));
    }),
  );
}

/** The buttons besides rotate; answers what to say once done. */
async function endpointVerb(s: WebhookScope, endpointId: string, verb: string, body: Query) {
  switch (verb) {
    case 'test':
      return `test event evt_${await sendTestEvent(s, endpointId)} queued for ${endpointId}`;
    case 'disable':
    case 'enable':
      await updateEndpoint(s, endpointId, { disabled: verb === 'disable' });
      return `${endpointId} ${verb}d`;
    case 'delete':
      await deleteEndpoint(s, endpointId);
      return `${endpointId} deleted`;
    case 'replay': {
      const eventId = Number(param(body, 'eventId', 20));
      if (!Number.isSafeInteger(eventId) || eventId < 1)
        throw invalid('eventId', 'is not an event');
      await replay(s, { eventId }, endpointId);
      return `evt_${eventId} sent again to ${endpointId}`;
    }
    default:
      throw invalid(
        'operation',
        `${verb} is not one of test, disable, enable, delete, replay, rotate`,
      );
  }
}

/** The values of a group of checkboxes (none, one or several). */
function checked(body: Query, name: string): string[] {
  const raw: unknown = (body as Record<string, unknown>)[name];
  if (raw === undefined) return [];
  return (Array.isArray(raw) ? raw : [raw]).map(String);
}
