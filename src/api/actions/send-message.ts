import { Type, type Static } from '@sinclair/typebox';
import type { BusinessPhone } from '../../domain/accounts/account.js';
import {
  FALLBACK_AFTER_MAX_S,
  FALLBACK_AFTER_MIN_S,
  OUTSIDE_WINDOW_CODE,
  type FallbackSpec,
} from '../../domain/business-messages/conversation.js';
import { parseBusinessContentAt } from '../../domain/business-messages/content.js';
import { WirebirdError, invalid } from '../../domain/errors.js';
import { e164Of } from '../../domain/phones/phones.js';
import { defineAction } from '../context.js';
import { acceptOnce, findReplay, idempotencyOf } from '../idempotency.js';
import { checkMediaIds } from './media-ids.js';
import { Obj } from '../answer-schemas.js';
import { TemplateParams } from './schema-types.js';
import {
  checkBusinessContact,
  storeBusinessMessage,
  windowRefusal,
  type BusinessIntake,
} from '../../core/accept-business-message.js';
import { checkFallback } from '../../core/business-fallback.js';
import { businessIntakeOf, smsIntakeOf } from '../intake.js';
import { ScheduleParams, scheduleIn } from '../schedule-fields.js';

const Fallback = Type.Object(
  {
    TemplateId: Type.String({ minLength: 1, maxLength: 64 }),
    TemplateParams: Type.Optional(TemplateParams),
    SenderId: Type.Optional(Type.String({ maxLength: 64 })),
    After: Type.Optional(
      Type.Integer({
        minimum: FALLBACK_AFTER_MIN_S,
        maximum: FALLBACK_AFTER_MAX_S,
        description: `a whole number of seconds from ${FALLBACK_AFTER_MIN_S} to ${FALLBACK_AFTER_MAX_S}`,
      }),
    ),
  },
  {
    additionalProperties: false,
    description: 'the SMS sent to To when the message fails or is not delivered within After',
  },
);

const Input = Type.Object({
  To: Type.String({ minLength: 1, maxLength: 64 }),
  Type: Type.String({ minLength: 1, maxLength: 32 }),
  Content: Type.Union([Type.String(), Type.Object({})], { description: 'a JSON string' }),
  BusinessPhone: Type.String({ minLength: 1, maxLength: 64 }),
  Fallback: Type.Optional(Fallback),
  ...ScheduleParams,
});

export const sendMessage = defineAction(
  {
    scope: 'send',
    repeatable: 'keyed',
    summary:
      'Sends one business message (WhatsApp or the simulator) from a registered business phone.',
    request: Input,
    answer: Obj({ RequestId: Type.String(), Data: Obj({ MessageId: Type.String() }) }),
  },
  async (ctx, input) => {
    const { store, ids } = ctx.deps;
    const region = await ctx.defaultRegion();
    const to = e164Of(input.To, region, 'To');
    const from = e164Of(input.BusinessPhone, region, 'BusinessPhone');
    const parsed = parseBusinessContentAt(input.Type, input.Content);
    const content = await checkMediaIds(store, ctx.accountId, parsed.content, parsed.base);
    const phone = await store.getBusinessPhone(ctx.accountId, from);
    if (!phone) throw invalid('BusinessPhone', `${from} is not registered for this account`);
    const schedule = scheduleIn(ctx, input);
    const fallback = input.Fallback && fallbackSpec(input.Fallback);
    if (fallback) await checkFallback(smsIntakeOf(ctx.deps), ctx.accountId, to, fallback);

    const idem = idempotencyOf(ctx, input);
    const replayed = await findReplay(ctx, idem);
    if (replayed) return replayed;
    const intake = businessIntakeOf(ctx.deps);
    await checkBusinessContact(intake, ctx.accountId, to);
    const sending = { type: content.type, e164: to, fallback, ...schedule };
    const failure = await windowFailure(intake, phone, sending);
    const messageId = ids.orderedId();
    const answer = { RequestId: ids.uuid(), Data: { MessageId: messageId } };
    const message = {
      messageId,
      requestId: answer.RequestId,
      accountId: ctx.accountId,
      businessPhone: phone.businessPhone,
      to: input.To,
      e164: to,
      route: phone.channel,
      type: content.type,
      content: JSON.stringify(content),
      ...(fallback ? { fallback } : {}),
      ...(failure ? { failure } : {}),
      ...schedule,
    };
    return acceptOnce(ctx, idem, {
      answer,
      store: (record) => storeBusinessMessage(intake, message, record),
    });
  },
);

function fallbackSpec(f: Static<typeof Fallback>): FallbackSpec {
  return {
    templateId: f.TemplateId,
    params: (f.TemplateParams ?? []).map(String),
    senderId: f.SenderId ?? '',
    ...(f.After === undefined ? {} : { afterS: f.After }),
  };
}

/**
 * Outside the contact's window (at SendAt, for a scheduled one) a free-form message is refused,
 * unless it has a fallback and no SendAt: then it is accepted failed, as Meta would fail it
 * (131047), and its SMS goes at once.
 */
async function windowFailure(
  intake: BusinessIntake,
  phone: BusinessPhone,
  m: { type: string; e164: string; fallback: FallbackSpec | undefined; dueAt?: number },
): Promise<{ code: string; desc: string } | undefined> {
  const refusal = await windowRefusal(intake, phone, m);
  if (refusal === undefined) return undefined;
  // A fallback fired now would go before SendAt: a scheduled one is refused instead.
  if (!m.fallback || m.dueAt !== undefined) throw new WirebirdError('WindowClosed', refusal);
  return { code: OUTSIDE_WINDOW_CODE, desc: refusal };
}
