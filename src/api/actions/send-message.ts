import { Type } from '@sinclair/typebox';
import { parseBusinessContentAt } from '../../domain/business-messages/content.js';
import { RetCode, WirebirdError, invalid } from '../../domain/errors.js';
import { optedOutReason } from '../../domain/opt-out/opt-out.js';
import { e164Of } from '../../domain/phones/phones.js';
import { defineAction } from '../context.js';
import { acceptOnce, findReplay, idempotencyOf } from '../idempotency.js';
import { checkMediaIds } from './media-ids.js';
import { Obj } from '../answer-schemas.js';
import { optedOut } from '../../core/sms-rules.js';

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
    const { store, clock, ids } = ctx.deps;
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
    if ((await optedOut(store, ctx.accountId, [to])).size > 0) {
      throw new WirebirdError('OptedOut', optedOutReason(to, RetCode.OptedOut));
    }
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
      acceptedAt: clock.now(),
    };
    return acceptOnce(ctx, idem, {
      answer,
      store: (record) => store.acceptBusinessMessage(message, record),
      kind: 'business',
      routes: [message.route],
    });
  },
);
