import { Type, type Static } from '@sinclair/typebox';
import { invalid } from '../../domain/errors.js';
import type { InboundFilter } from '../../domain/inbound/inbound.js';
import { smsNumberOf } from '../../domain/inbound/sms-number.js';
import { e164Of } from '../../domain/phones/phones.js';
import { defineAction } from '../context.js';
import { inboundView } from '../../domain/inbound/inbound-view.js';
import { IntegerLike, pageLimit } from './schema-types.js';
import { InboundMessage, Obj } from '../answer-schemas.js';

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

const Input = Type.Object({
  Phone: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  Number: Type.Optional(Type.String({ minLength: 1, maxLength: 32 })),
  Channel: Type.Optional(Type.Union([Type.Literal('sms'), Type.Literal('whatsapp')])),
  StartTime: Type.Optional(IntegerLike),
  EndTime: Type.Optional(IntegerLike),
  Cursor: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', maxLength: 15 })),
  Limit: Type.Optional(IntegerLike),
});

/**
 * Wirebird's own Action (docs/inbound.md): the account's inbound messages, newest first, a page
 * at a time; NextCursor ("" on the last page) asks for the next, older one. For applications
 * without a public URL to push events to.
 */
export const listInboundMessages = defineAction(
  {
    scope: 'read',
    repeatable: 'safe',
    summary: "The account's inbound messages, newest first; NextCursor asks for the next page.",
    request: Input,
    answer: Obj({ Data: Type.Array(InboundMessage), NextCursor: Type.String() }),
  },
  async (ctx, input) => {
    const region = await ctx.defaultRegion();
    const filter: InboundFilter = {
      accountId: ctx.accountId,
      ...addresses(input, region),
      ...(input.Channel ? { channel: input.Channel } : {}),
      ...timeRange(input),
      ...(input.Cursor ? { before: Number(input.Cursor) } : {}),
      limit: pageLimit(input.Limit, MAX_LIMIT, DEFAULT_LIMIT),
    };
    const page = await ctx.deps.store.listInbound(filter);
    return {
      Data: page.messages.map(inboundView),
      NextCursor: page.nextCursor === undefined ? '' : String(page.nextCursor),
    };
  },
);

function addresses(input: Static<typeof Input>, region: string): Partial<InboundFilter> {
  const out: Partial<InboundFilter> = {};
  if (input.Phone !== undefined) {
    out.phone = e164Of(input.Phone, region, 'Phone');
  }
  // An SMS number (short code or long number) or a business phone, normalised as stored.
  if (input.Number !== undefined) out.number = smsNumberOf(input.Number, region, 'Number');
  return out;
}

function timeRange(input: Static<typeof Input>): Partial<InboundFilter> {
  const start = input.StartTime === undefined ? undefined : Number(input.StartTime);
  const end = input.EndTime === undefined ? undefined : Number(input.EndTime);
  if (start !== undefined && start < 0)
    throw invalid('StartTime', 'must be Unix seconds, 0 or more');
  if (end !== undefined && start !== undefined && end <= start) {
    throw invalid('EndTime', 'must be after StartTime');
  }
  return {
    ...(start === undefined ? {} : { since: start * 1000 }),
    ...(end === undefined ? {} : { until: end * 1000 }),
  };
}
