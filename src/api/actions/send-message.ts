import { Type } from '@sinclair/typebox';
import { parseBusinessContentAt } from '../../domain/business-messages/content.js';
import { invalid } from '../../domain/errors.js';
import { e164Of } from '../../domain/phones/phones.js';
import { defineAction } from '../context.js';
import { acceptOnce, findReplay, idempotencyOf } from '../idempotency.js';
import { checkMediaIds } from './media-ids.js';
import { Obj } from '../answer-schemas.js';
import { checkBusinessContact, storeBusinessMessage } from '../../core/accept-business-message.js';
import { businessIntakeOf } from '../intake.js';

const Input = Type.Object({
  To: Type.String({ minLength: 1, maxLength: 64 }),
  Type: Type.String({ minLength: 1, maxLength: 32 }),
  Content: Type.Union([Type.String(), Type.Object({})], { description: 'a JSON string' }),
  BusinessPhone: Type.String({ minLength: 1, maxLength: 64 }),
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

    const idem = idempotencyOf(ctx, input);
    const replayed = await findReplay(ctx, idem);
    if (replayed) return replayed;
    const intake = businessIntakeOf(ctx.deps);
    await checkBusinessContact(intake, ctx.accountId, to);
    const messageId = ids.uuid();
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
    };
    return acceptOnce(ctx, idem, {
      answer,
      store: (record) => storeBusinessMessage(intake, message, record),
    });
  },
);
