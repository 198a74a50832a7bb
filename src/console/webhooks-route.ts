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
} from '../core/webhook-endpoints.js';
import { accountOf, consoleAudit, pageContext, type ConsoleContext } from './console-deps.js';
import { guardedRoute, sendPage, type PageRequest } from './console-routes.js';
import { checkboxReader, formReader, text } from './forms.js';
import { deliveryPage, webhooksPage, type Shown } from './webhooks-page.js';
import { webhookId } from '../domain/events/event.js';

const DELIVERIES_SHOWN = 50;

const ListQuery = formReader({ done: text(100) });
const EndpointForm = formReader({ url: text(2048), description: text(256) });
const ReplayForm = formReader({ eventId: text(20) });
const EventTypes = checkboxReader('types');

/**
 * The Webhooks page (docs/console.md): an account's endpoints, their latest deliveries, a
 * delivery's attempts and body, and the buttons that do what the webhook Actions do.
 */
export function registerWebhooksRoutes(app: FastifyInstance, ctx: ConsoleContext): void {
  app.get(
    '/console/webhooks',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.query);
      const { done } = ListQuery(request.query);
      const shown = done ? { notice: done } : undefined;
      return sendPage(reply, await show(ctx, request, accountId, shown));
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
  registerEndpointForms(app, ctx);
}

function scopeOf(ctx: ConsoleContext, accountId: number): WebhookScope {
  return {
    store: ctx.store,
    clock: ctx.clock,
    newEndpointId: ctx.newEndpointId,
    graceMs: ctx.secretGraceMs,
    events: ctx.webhooks,
    accountId,
  };
}

async function show(ctx: ConsoleContext, request: PageRequest, accountId: number, shown?: Shown) {
  const endpoints = await ctx.store.listEndpoints(accountId);
  const { deliveries } = await ctx.store.listDeliveries({ accountId, limit: DELIVERIES_SHOWN });
  const view = { accountId, endpoints, deliveries, ...(shown ? { shown } : {}) };
  return webhooksPage(pageContext(ctx, request), view);
}

/** Add an endpoint, and each endpoint's buttons. A new secret is shown on a page, never in a URL. */
function registerEndpointForms(app: FastifyInstance, ctx: ConsoleContext): void {
  app.post(
    '/console/webhooks',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.body);
      const form = EndpointForm(request.body);
      const { endpoint, secret } = await createEndpoint(scopeOf(ctx, accountId), {
        url: form.url,
        eventTypes: EventTypes(request.body),
        description: form.description,
      });
      const fact = { action: 'webhook.created', target: endpoint.endpointId, accountId };
      await consoleAudit(ctx, request, { ...fact, detail: { Url: endpoint.url } });
      const shown = { secret: { endpointId: endpoint.endpointId, value: secret } };
      const page = await show(ctx, request, accountId, shown);
      return sendPage(reply.header('cache-control', 'no-store'), page);
    }),
  );
  app.post(
    '/console/webhooks/:endpointId/:verb',
    guardedRoute(async (request, reply) => {
      const accountId = accountOf(request, request.body);
      const endpointId = request.params.endpointId ?? '';
      const s = scopeOf(ctx, accountId);
      const verb = request.params.verb ?? '';
      if (verb === 'rotate') {
        const { secret } = await rotateSecret(s, endpointId);
        const fact = { action: 'webhook.secret_rotated', target: endpointId, accountId };
        await consoleAudit(ctx, request, fact);
        const page = await show(ctx, request, accountId, { secret: { endpointId, value: secret } });
        return sendPage(reply.header('cache-control', 'no-store'), page);
      }
      const done = await endpointVerb(s, endpointId, verb, request.body);
      const past = {
        disable: 'disabled',
        enable: 'enabled',
        delete: 'deleted',
        replay: 'replayed',
      };
      const fact = {
        // The route pattern admits only the verbs `past` has.
        action: `webhook.${past[verb as keyof typeof past]}`,
        target: endpointId,
        accountId,
      };
      if (verb !== 'test') await consoleAudit(ctx, request, fact);
      const q = new URLSearchParams({ account: String(accountId), done });
      return reply.redirect(`/console/webhooks?${q.toString()}`, 303);
    }),
  );
}

/** The buttons besides rotate; answers what to say once done. */
async function endpointVerb(s: WebhookScope, endpointId: string, verb: string, body: unknown) {
  switch (verb) {
    case 'test':
      return `test event ${webhookId(await sendTestEvent(s, endpointId))} queued for ${endpointId}`;
    case 'disable':
    case 'enable':
      await updateEndpoint(s, endpointId, { disabled: verb === 'disable' });
      return `${endpointId} ${verb}d`;
    case 'delete':
      await deleteEndpoint(s, endpointId);
      return `${endpointId} deleted`;
    case 'replay': {
      const eventId = Number(ReplayForm(body).eventId);
      if (!Number.isSafeInteger(eventId) || eventId < 1)
        throw invalid('eventId', 'is not an event');
      await replay(s, { eventId }, endpointId);
      return `${webhookId(eventId)} sent again to ${endpointId}`;
    }
    default:
      throw invalid(
        'operation',
        `${verb} is not one of test, disable, enable, delete, replay, rotate`,
      );
  }
}
