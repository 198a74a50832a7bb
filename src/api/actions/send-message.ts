import { Type } from '@sinclair/typebox';
import { parseBusinessContentAt } from '../../domain/business-messages/content.js';
import { invalid } from '../../domain/errors.js';
import { normalizePhone } from '../../domain/phones/phones.js';
import { defineAction } from '../context.js';
import { acceptOnce, findReplay, idempotencyOf } from '../idempotency.js';
import { checkMediaIds } from './media-ids.js';

const Input = Type.Object({
  To: Type.String({ minLength: 1, maxLength: 64 }),
  Type: Type.String({ minLength: 1, maxLength: 32 }),
  Content: Type.Union([Type.String(), Type.Object({})], { description: 'a JSON string' }),
  BusinessPhone: Type.String({ minLength: 1, maxLength: 64 }),
});

export const sendMessage = defineAction(Input, async (ctx, input) => {
  const { store, clock, ids } = ctx.deps;
  const region = await ctx.defaultRegion();
  const to = normalizePhone(input.To, region);
  if (!to.ok) throw invalid('To', to.reason);
  const from = normalizePhone(input.BusinessPhone, region);
  if (!from.ok) throw invalid('BusinessPhone', from.reason);
  const parsed = parseBusinessContentAt(input.Type, input.Content);
  const content = await checkMediaIds(store, ctx.accountId, parsed.content, parsed.base);
  const phone = await store.getBusinessPhone(ctx.accountId, from.e164);
  if (!phone) throw invalid('BusinessPhone', `${from.e164} is not registered for this account`);

  const idem = idempotencyOf(ctx, input);
  const replayed = await findReplay(ctx, idem);
  if (replayed) return replayed;
  const messageId = ids.uuid();
  const answer = { RequestId: ids.uuid(), Data: { MessageId: messageId } };
  const message = {
    messageId,
    requestId: answer.RequestId,
    accountId: ctx.accountId,
    businessPhone: phone.businessPhone,
    to: input.To,
    e164: to.e164,
    route: phone.channel,
    type: content.type,
    content: JSON.stringify(content),
    acceptedAt: clock.now(),
  };
  return acceptOnce(ctx, idem, answer, (record) => store.acceptBusinessMessage(message, record), {
    kind: 'business',
    routes: [message.route],
  });
});
