import { Type } from '@sinclair/typebox';
import { WirebirdError } from '../../domain/errors.js';
import type { WebhookEndpoint } from '../../domain/events/endpoint.js';
import { EVENT_ID_PATTERN, webhookId } from '../../domain/events/event.js';
import { defineAction, type ActionContext } from '../context.js';
import {
  createEndpoint,
  deleteEndpoint,
  rotateSecret,
  sendTestEvent,
  updateEndpoint,
  type WebhookScope,
} from '../../core/webhook-endpoints.js';
import { Obj, WebhookEndpoint as WebhookEndpointSchema } from '../answer-schemas.js';
import { definedFields } from './audit-facts.js';

const EndpointId = Type.String({ minLength: 1, maxLength: 64 });
const Url = Type.String({ minLength: 1, maxLength: 2048 });
const Description = Type.String({ maxLength: 256 });
const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), { maxItems: 16 });

/** The endpoint as the API shows it: never its secret. Times in Unix seconds. */
export function endpointView(e: WebhookEndpoint): Record<string, unknown> {
  const s = (ms: number | undefined) => (ms === undefined ? 0 : Math.floor(ms / 1000));
  return {
    EndpointId: e.endpointId,
    Url: e.url,
    Description: e.description,
    EventTypes: e.eventTypes,
    Disabled: e.disabled,
    DisabledReason: e.disabledReason,
    DisabledTime: s(e.disabledAt),
    FailingSince: s(e.failingSince),
    CreateTime: s(e.createdAt),
    UpdateTime: s(e.updatedAt),
  };
}

/** The calling account's webhook scope; the webhook Actions run on the main thread only. */
export function webhookScope(ctx: ActionContext): WebhookScope {
  const events = ctx.deps.webhooks;
  if (!events) throw new WirebirdError('Internal', 'webhook Actions are not served here');
  return {
    store: ctx.deps.store,
    clock: ctx.deps.clock,
    newEndpointId: () => ctx.deps.ids.endpointId(),
    graceMs: ctx.deps.config.webhooks.secretGraceMs,
    events,
    accountId: ctx.accountId,
  };
}

/** Wirebird's own Actions (docs/events.md): the secret is answered at creation and rotation only. */
export const createWebhookEndpoint = defineAction(
  {
    audit: (input, answer) => ({
      action: 'webhook.created',
      target: String(answer.EndpointId),
      detail: { Url: input.Url, EventTypes: input.EventTypes ?? [] },
    }),
    summary: 'Adds a webhook endpoint; its signing Secret is answered here only.',
    request: Type.Object({
      Url,
      EventTypes: Type.Optional(EventTypes),
      Description: Type.Optional(Description),
    }),
    answer: Obj({
      EndpointId: Type.String(),
      Secret: Type.String({ pattern: '^whsec_' }),
      Endpoint: WebhookEndpointSchema,
    }),
  },
  async (ctx, input) => {
    const { endpoint, secret } = await createEndpoint(webhookScope(ctx), {
      url: input.Url,
      ...(input.EventTypes === undefined ? {} : { eventTypes: input.EventTypes }),
      ...(input.Description === undefined ? {} : { description: input.Description }),
    });
    return { EndpointId: endpoint.endpointId, Secret: secret, Endpoint: endpointView(endpoint) };
  },
);

export const listWebhookEndpoints = defineAction(
  {
    repeatable: 'safe',
    summary: "The account's webhook endpoints (never their secrets).",
    request: Type.Object({}),
    answer: Obj({ Data: Type.Array(WebhookEndpointSchema) }),
  },
  async (ctx) => {
    const list = await ctx.deps.store.listEndpoints(ctx.accountId);
    return { Data: list.map(endpointView) };
  },
);

export const updateWebhookEndpoint = defineAction(
  {
    audit: (input) => ({
      action: 'webhook.updated',
      target: input.EndpointId,
      detail: { Fields: definedFields(input, ['Url', 'EventTypes', 'Description', 'Disabled']) },
    }),
    summary: 'Changes an endpoint: its URL, event types, description, or whether it is disabled.',
    request: Type.Object({
      EndpointId,
      Url: Type.Optional(Url),
      EventTypes: Type.Optional(EventTypes),
      Description: Type.Optional(Description),
      Disabled: Type.Optional(Type.Boolean()),
    }),
    answer: Obj({ Endpoint: WebhookEndpointSchema }),
  },
  async (ctx, input) => {
    const next = await updateEndpoint(webhookScope(ctx), input.EndpointId, {
      ...(input.Url === undefined ? {} : { url: input.Url }),
      ...(input.EventTypes === undefined ? {} : { eventTypes: input.EventTypes }),
      ...(input.Description === undefined ? {} : { description: input.Description }),
      ...(input.Disabled === undefined ? {} : { disabled: input.Disabled }),
    });
    return { Endpoint: endpointView(next) };
  },
);

export const deleteWebhookEndpoint = defineAction(
  {
    audit: (input) => ({ action: 'webhook.deleted', target: input.EndpointId }),
    summary: 'Deletes an endpoint and its delivery history.',
    request: Type.Object({ EndpointId }),
    answer: Obj({}),
  },
  async (ctx, input) => {
    await deleteEndpoint(webhookScope(ctx), input.EndpointId);
    return {};
  },
);

export const rotateWebhookSecret = defineAction(
  {
    audit: (input) => ({ action: 'webhook.secret_rotated', target: input.EndpointId }),
    summary: 'Gives an endpoint a new secret; the old one also signs until the grace period ends.',
    request: Type.Object({ EndpointId }),
    answer: Obj({
      EndpointId: Type.String(),
      Secret: Type.String({ pattern: '^whsec_' }),
      PreviousSecretExpireTime: Type.Integer({ minimum: 0 }),
    }),
  },
  async (ctx, input) => {
    const { secret, previousUntil } = await rotateSecret(webhookScope(ctx), input.EndpointId);
    return {
      EndpointId: input.EndpointId,
      Secret: secret,
      PreviousSecretExpireTime: Math.floor(previousUntil / 1000),
    };
  },
);

export const sendWebhookTestEvent = defineAction(
  {
    summary: 'Sends a webhook.test event to one endpoint.',
    request: Type.Object({ EndpointId }),
    answer: Obj({ EventId: Type.String({ pattern: EVENT_ID_PATTERN }) }),
  },
  async (ctx, input) => {
    const eventId = await sendTestEvent(webhookScope(ctx), input.EndpointId);
    return { EventId: webhookId(eventId) };
  },
);
