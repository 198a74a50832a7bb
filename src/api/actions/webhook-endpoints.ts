import { Type } from '@sinclair/typebox';
import { WirebirdError, invalid } from '../../domain/errors.js';
import { newEndpoint, type WebhookEndpoint } from '../../domain/events/endpoint.js';
import { EVENT_TYPES, TEST_EVENT, webhookId, type EventType } from '../../domain/events/event.js';
import type { EventsDeps } from '../../events/start-events.js';
import { defineAction, type ActionContext } from '../context.js';

/** Endpoints an account may have: enough for every environment, not a fan-out amplifier. */
export const MAX_ENDPOINTS = 20;

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

export function webhookDeps(ctx: ActionContext): EventsDeps {
  const deps = ctx.deps.webhooks;
  if (!deps) throw new WirebirdError('Internal', 'webhook Actions are not served here');
  return deps;
}

function eventTypesOf(raw: readonly string[] | undefined): EventType[] | undefined {
  if (raw === undefined) return undefined;
  const unknown = raw.filter((t) => !(EVENT_TYPES as readonly string[]).includes(t));
  if (unknown.length > 0) {
    throw invalid(
      'EventTypes',
      `has unknown types ${unknown.join(', ')}; known: ${EVENT_TYPES.join(', ')}`,
    );
  }
  return raw as EventType[];
}

async function checkedUrl(ctx: ActionContext, url: string): Promise<string> {
  const problem = await webhookDeps(ctx).urlProblem(url);
  if (problem) throw invalid('Url', problem);
  return url;
}

async function ownEndpoint(ctx: ActionContext, endpointId: string): Promise<WebhookEndpoint> {
  const e = await ctx.deps.store.getEndpoint(ctx.accountId, endpointId);
  if (!e) throw new WirebirdError('NotFound', `EndpointId ${endpointId} not found`);
  return e;
}

/** Wirebird's own Action (docs/events.md): the secret is answered here and at rotation only. */
export const createWebhookEndpoint = defineAction(
  Type.Object({
    Url,
    EventTypes: Type.Optional(EventTypes),
    Description: Type.Optional(Description),
  }),
  async (ctx, input) => {
    const deps = webhookDeps(ctx);
    const url = await checkedUrl(ctx, input.Url);
    const existing = await ctx.deps.store.listEndpoints(ctx.accountId);
    if (existing.length >= MAX_ENDPOINTS) {
      throw new WirebirdError(
        'LimitExceeded',
        `an account has at most ${MAX_ENDPOINTS} webhook endpoints; delete one first`,
      );
    }
    const now = ctx.deps.clock.now();
    const secret = deps.newSecret();
    const endpoint = newEndpoint({
      endpointId: ctx.deps.ids.endpointId(),
      accountId: ctx.accountId,
      url,
      ...(input.Description === undefined ? {} : { description: input.Description }),
      ...(input.EventTypes === undefined ? {} : { eventTypes: eventTypesOf(input.EventTypes) }),
      secret: deps.box.seal(secret),
      now,
    });
    await ctx.deps.store.insertEndpoint(endpoint);
    return { EndpointId: endpoint.endpointId, Secret: secret, Endpoint: endpointView(endpoint) };
  },
);

export const listWebhookEndpoints = defineAction(Type.Object({}), async (ctx) => {
  const list = await ctx.deps.store.listEndpoints(ctx.accountId);
  return { Data: list.map(endpointView) };
});

export const updateWebhookEndpoint = defineAction(
  Type.Object({
    EndpointId,
    Url: Type.Optional(Url),
    EventTypes: Type.Optional(EventTypes),
    Description: Type.Optional(Description),
    Disabled: Type.Optional(Type.Boolean()),
  }),
  async (ctx, input) => {
    const url = input.Url === undefined ? undefined : await checkedUrl(ctx, input.Url);
    const eventTypes = eventTypesOf(input.EventTypes);
    const change = {
      ...(url === undefined ? {} : { url }),
      ...(eventTypes === undefined ? {} : { eventTypes }),
      ...(input.Description === undefined ? {} : { description: input.Description }),
      ...(input.Disabled === undefined ? {} : { disabled: input.Disabled }),
    };
    const now = ctx.deps.clock.now();
    const next = await ctx.deps.store.updateEndpoint(ctx.accountId, input.EndpointId, change, now);
    if (!next) throw new WirebirdError('NotFound', `EndpointId ${input.EndpointId} not found`);
    if (input.Disabled === false) webhookDeps(ctx).nudge();
    return { Endpoint: endpointView(next) };
  },
);

export const deleteWebhookEndpoint = defineAction(
  Type.Object({ EndpointId }),
  async (ctx, input) => {
    if (!(await ctx.deps.store.deleteEndpoint(ctx.accountId, input.EndpointId))) {
      throw new WirebirdError('NotFound', `EndpointId ${input.EndpointId} not found`);
    }
    return {};
  },
);

/**
 * A new secret; the old one keeps signing, as a second signature, for the configured grace so
 * that receivers can switch without losing a delivery.
 */
export const rotateWebhookSecret = defineAction(Type.Object({ EndpointId }), async (ctx, input) => {
  const deps = webhookDeps(ctx);
  const current = await ownEndpoint(ctx, input.EndpointId);
  const now = ctx.deps.clock.now();
  const secret = deps.newSecret();
  const previousUntil = now + ctx.deps.config.webhooks.secretGraceMs;
  const change = { secret: deps.box.seal(secret), previousSecret: current.secret, previousUntil };
  await ctx.deps.store.updateEndpoint(ctx.accountId, input.EndpointId, change, now);
  return {
    EndpointId: input.EndpointId,
    Secret: secret,
    PreviousSecretExpireTime: Math.floor(previousUntil / 1000),
  };
});

/** A `webhook.test` event to one endpoint, delivered like any other. */
export const sendWebhookTestEvent = defineAction(
  Type.Object({ EndpointId }),
  async (ctx, input) => {
    await ownEndpoint(ctx, input.EndpointId);
    const now = ctx.deps.clock.now();
    const event = {
      accountId: ctx.accountId,
      type: TEST_EVENT,
      at: now,
      data: { EndpointId: input.EndpointId, Message: 'a test event from Wirebird' },
    } as const;
    const [eventId] = await ctx.deps.store.emitEvents([event], now, input.EndpointId);
    webhookDeps(ctx).nudge();
    return { EventId: eventId === undefined ? '' : webhookId(eventId) };
  },
);
