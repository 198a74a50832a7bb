import { Type, type Static } from '@sinclair/typebox';
import { invalid } from '../../domain/errors.js';
import type { DeliveryCursor, DeliveryView } from '../../domain/events/endpoint.js';
import { EVENT_ID_PATTERN, eventNumber, webhookId } from '../../domain/events/event.js';
import { defineAction } from '../context.js';
import { IntegerLike } from './schema-types.js';
import { replay } from '../../core/webhook-endpoints.js';
import { webhookScope } from './webhook-endpoints.js';
import { Obj, WebhookDelivery } from '../answer-schemas.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

const EventId = Type.String({ pattern: EVENT_ID_PATTERN, maxLength: 19 });

/** An EventId the schema checked (`evt_<n>`), as the store's number. */
const checkedEventNumber = (id: string): number => eventNumber(id) ?? 0;

function deliveryView(d: DeliveryView): Record<string, unknown> {
  const s = (ms: number | undefined) => (ms === undefined ? 0 : Math.floor(ms / 1000));
  return {
    EventId: webhookId(d.eventId),
    EndpointId: d.endpointId,
    Type: d.type,
    State: d.state,
    Attempts: d.attempts,
    LastStatusCode: d.lastStatus ?? 0,
    LastError: d.lastError,
    LastAttemptTime: s(d.lastAt),
    LatencyMs: d.latencyMs ?? 0,
    NextAttemptTime: s(d.nextAt),
    CreateTime: s(d.createdAt),
    DeliveredTime: s(d.deliveredAt),
  };
}

const cursorText = (c: DeliveryCursor) => `${c.eventId}.${c.endpointId}`;

function cursorOf(text: string): DeliveryCursor {
  const m = /^([0-9]{1,15})\.(.{1,64})$/.exec(text);
  if (!m) throw invalid('Cursor', 'is not a NextCursor this Action answered; start without one');
  // The pattern matched, so its second group took part.
  return { eventId: Number(m[1]), endpointId: m[2] as string };
}

const ListInput = Type.Object({
  EndpointId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  EventId: Type.Optional(EventId),
  State: Type.Optional(
    Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]),
  ),
  Cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  Limit: Type.Optional(IntegerLike),
});

function limitOf(raw: Static<typeof ListInput>['Limit']): number {
  if (raw === undefined) return DEFAULT_LIMIT;
  const n = Number(raw);
  if (n < 1 || n > MAX_LIMIT) throw invalid('Limit', `must be 1 to ${MAX_LIMIT}`);
  return n;
}

/** The account's deliveries, newest event first, a page at a time (docs/events.md). */
export const listWebhookDeliveries = defineAction(
  {
    repeatable: 'safe',
    summary: "The account's webhook deliveries, newest event first, a page at a time.",
    request: ListInput,
    answer: Obj({ Data: Type.Array(WebhookDelivery), NextCursor: Type.String() }),
  },
  async (ctx, input) => {
    const page = await ctx.deps.store.listDeliveries({
      accountId: ctx.accountId,
      ...(input.EndpointId === undefined ? {} : { endpointId: input.EndpointId }),
      ...(input.EventId === undefined ? {} : { eventId: checkedEventNumber(input.EventId) }),
      ...(input.State === undefined ? {} : { state: input.State }),
      ...(input.Cursor === undefined ? {} : { before: cursorOf(input.Cursor) }),
      limit: limitOf(input.Limit),
    });
    return {
      Data: page.deliveries.map(deliveryView),
      NextCursor: page.nextCursor ? cursorText(page.nextCursor) : '',
    };
  },
);

/**
 * Sends again: one event (to every endpoint it went to, or to `EndpointId`, even one created
 * since), or every delivery that failed for good since `Since` (Unix seconds).
 */
export const replayWebhookEvents = defineAction(
  {
    audit: (input, answer) => ({
      action: 'webhook.replayed',
      target: input.EventId ?? `since ${String(input.Since)}`,
      detail: { EndpointId: input.EndpointId ?? '', Replayed: answer.Replayed },
    }),
    summary: 'Sends an event again, or every delivery that failed for good since a time.',
    request: Type.Object({
      EventId: Type.Optional(EventId),
      Since: Type.Optional(IntegerLike),
      EndpointId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    }),
    answer: Obj({ Replayed: Type.Integer({ minimum: 0 }) }),
  },
  async (ctx, input) => {
    if ((input.EventId === undefined) === (input.Since === undefined)) {
      throw invalid(
        'EventId',
        'or Since is required, not both: one event, or every failed one since a time',
      );
    }
    const what =
      input.EventId !== undefined
        ? { eventId: checkedEventNumber(input.EventId) }
        : { failedSince: sinceMs(input.Since) };
    return { Replayed: await replay(webhookScope(ctx), what, input.EndpointId) };
  },
);

function sinceMs(raw: number | string | undefined): number {
  const n = Number(raw);
  if (!(n >= 0)) throw invalid('Since', 'must be Unix seconds, 0 or more');
  return n * 1000;
}
