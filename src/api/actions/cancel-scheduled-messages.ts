import { Type } from '@sinclair/typebox';
import { MAX_NUMBERS_PER_REQUEST } from '../../domain/batches/batch.js';
import { WirebirdError, missing } from '../../domain/errors.js';
import { e164Of } from '../../domain/phones/phones.js';
import { defineAction, type ActionContext } from '../context.js';
import { Obj } from '../answer-schemas.js';
import { StringList, toList } from './schema-types.js';

const Input = Type.Object({
  SessionNoSet: Type.Optional(StringList({ minItems: 1, maxItems: 100 })),
  Phones: Type.Optional(StringList({ minItems: 1, maxItems: 100 })),
  MessageIds: Type.Optional(StringList({ minItems: 1, maxItems: 100 })),
});

/**
 * Cancels what the account sent that is still held (due later, or not yet handed upstream): each
 * message ends as Fail with ReceiptCode CANCELED and CostCount 0. A message already handed
 * upstream cannot be taken back and is not counted. Sessions and messages of another account are
 * left out, as GetUSMSSendReceipt leaves them out.
 */
export const cancelScheduledMessages = defineAction(
  {
    scope: 'send',
    repeatable: 'safe',
    summary:
      'Cancels held messages (scheduled, or not yet handed upstream) by session or MessageId.',
    request: Input,
    answer: Obj({
      Data: Type.Array(
        Obj({ SessionNo: Type.String(), CanceledCount: Type.Integer({ minimum: 0 }) }),
        {
          description:
            "the account's sessions asked for, in order, each with how many were cancelled",
        },
      ),
      Messages: Type.Array(Obj({ MessageId: Type.String(), Canceled: Type.Boolean() }), {
        description: "the account's business messages asked for, in order",
      }),
    }),
  },
  async (ctx, input) => {
    if (input.SessionNoSet === undefined && input.MessageIds === undefined) {
      throw missing('SessionNoSet');
    }
    const now = ctx.deps.clock.now();
    const phones =
      input.Phones === undefined ? [undefined] : await phonesOf(ctx, toList(input.Phones));
    const sessions = input.SessionNoSet === undefined ? [] : toList(input.SessionNoSet);
    // Each session and number is one cancel in the store: bounded, as a batch's numbers are.
    if (sessions.length * phones.length > MAX_NUMBERS_PER_REQUEST) {
      throw new WirebirdError(
        'LimitExceeded',
        `SessionNoSet × Phones names ${sessions.length * phones.length} pairs; at most ${MAX_NUMBERS_PER_REQUEST} per request`,
      );
    }
    const Data = [];
    for (const sessionNo of await ctx.deps.store.accountSessions(ctx.accountId, sessions)) {
      let count = 0;
      for (const e164 of phones) {
        count += await ctx.deps.store.cancelQueued(ctx.accountId, sessionNo, e164, now);
      }
      Data.push({ SessionNo: sessionNo, CanceledCount: count });
    }
    const Messages = [];
    for (const id of [...new Set(input.MessageIds === undefined ? [] : toList(input.MessageIds))]) {
      if (!(await ctx.deps.store.getBusinessMessage(id, ctx.accountId))) continue;
      const canceled = await ctx.deps.store.cancelQueuedBusiness(ctx.accountId, id, now);
      Messages.push({ MessageId: id, Canceled: canceled });
    }
    return { Data, Messages };
  },
);

/** The numbers asked for, read in the account's region; each once. */
async function phonesOf(ctx: ActionContext, raw: readonly string[]): Promise<string[]> {
  const region = await ctx.defaultRegion();
  return [...new Set(raw.map((p, i) => e164Of(p, region, `Phones[${i}]`)))];
}
