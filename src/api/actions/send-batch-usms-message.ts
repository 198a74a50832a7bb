import { Type } from '@sinclair/typebox';
import { MAX_NUMBERS_PER_REQUEST, type TaskCountModal } from '../../domain/batches/batch.js';
import { planBatch } from '../../domain/batches/plan-batch.js';
import { WirebirdError } from '../../domain/errors.js';
import { defineAction, type ActionContext } from '../context.js';
import { findReplay, idempotencyOf, recordFor, replay } from '../idempotency.js';

const Target = Type.Object({
  Phone: Type.String({ minLength: 1, maxLength: 64 }),
  TemplateParams: Type.Optional(
    Type.Array(Type.Union([Type.String(), Type.Number()], { description: 'a string' }), {
      maxItems: 100,
    }),
  ),
  SenderId: Type.Optional(Type.String({ maxLength: 32 })),
  ExtendCode: Type.Optional(Type.String({ maxLength: 16 })),
  UserId: Type.Optional(Type.String({ maxLength: 128 })),
});
const Group = Type.Object({
  TemplateId: Type.String({ minLength: 1, maxLength: 64 }),
  SenderId: Type.Optional(Type.String({ maxLength: 32 })),
  Target: Type.Array(Target, { minItems: 1 }),
});
const Input = Type.Object({ TaskContent: Type.Array(Group, { minItems: 1 }) });

export const sendBatchUsmsMessage = defineAction(Input, async (ctx, input) => {
  const groups = input.TaskContent as TaskCountModal[];
  const total = groups.reduce((n, g) => n + g.Target.length, 0);
  if (total > MAX_NUMBERS_PER_REQUEST) {
    throw new WirebirdError(
      'LimitExceeded',
      `TaskContent holds ${total} numbers; at most ${MAX_NUMBERS_PER_REQUEST} are allowed per request`,
    );
  }
  const idem = idempotencyOf(ctx, input);
  const replayed = await findReplay(ctx, idem);
  if (replayed) return replayed;

  const plan = planBatch(groups, await batchContext(ctx, groups));
  const reqUuid = ctx.deps.ids.uuid();
  const failed = { ReqUuid: reqUuid, SuccessCount: 0, FailContent: plan.failContent };
  if (plan.accepted.length === 0) {
    throw new WirebirdError(
      'NothingAccepted',
      `no message was accepted: all ${total} numbers failed; see FailContent`,
      failed,
    );
  }
  const sessionNo = ctx.deps.ids.uuid();
  const answer = {
    ...(plan.failedCount > 0
      ? { Message: `${plan.failedCount} of ${total} numbers failed; see FailContent` }
      : {}),
    SessionNo: sessionNo,
    ReqUuid: reqUuid,
    SuccessCount: plan.accepted.length,
    FailContent: plan.failContent,
  };
  const batch = {
    accountId: ctx.accountId,
    sessionNo,
    acceptedAt: ctx.deps.clock.now(),
    messages: plan.accepted,
  };
  const raced = await ctx.deps.store.acceptBatch(batch, recordFor(ctx, idem, answer));
  if (raced && idem) return replay(idem, raced);
  ctx.deps.nudges.dispatch();
  return answer;
});

async function batchContext(ctx: ActionContext, groups: TaskCountModal[]) {
  const { store, config, routing } = ctx.deps;
  const templateIds = [...new Set(groups.map((g) => g.TemplateId))];
  const named = groups.flatMap((g) => [g.SenderId, ...g.Target.map((t) => t.SenderId)]);
  const senderIds = [...new Set(named.filter((s): s is string => !!s))];
  const templates = await store.getTemplates(ctx.accountId, templateIds);
  return {
    templates: new Map(templates.map((t) => [t.templateId, t])),
    senderIds: await store.hasSenderIds(ctx.accountId, senderIds),
    defaultRegion: config.defaultRegion,
    route: (e164: string, senderId: string) => routing.smsRoute(e164, senderId),
  };
}
