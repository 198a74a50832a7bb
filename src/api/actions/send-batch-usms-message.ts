import { Type, type Static } from '@sinclair/typebox';
import {
  MAX_NUMBERS_PER_REQUEST,
  type BatchInfo,
  type TaskCountModal,
} from '../../domain/batches/batch.js';
import { WirebirdError } from '../../domain/errors.js';
import { defineAction, type ActionContext } from '../context.js';
import { acceptOnce, findReplay, idempotencyOf } from '../idempotency.js';
import { BatchInfo as BatchInfoSchema, Obj } from '../answer-schemas.js';
import { TemplateParams } from './schema-types.js';
import { planGroups, storeSms } from '../../core/accept-sms.js';
import { smsIntakeOf } from '../intake.js';
import { ScheduleParams, scheduleIn } from '../schedule-fields.js';

// Clients that serialise every field send null for "not set": null is taken as absent. Business
// limits (UserId, ExtendCode) are number-level checks in plan-batch, not request-level ones.
const OptionalString = Type.Optional(
  Type.Union([Type.String(), Type.Null()], { description: 'a string' }),
);
const Target = Type.Object({
  // An empty Phone fails its own row (FailContent) like any unreadable number, not the request.
  Phone: Type.String({ maxLength: 64 }),
  TemplateParams: Type.Optional(
    Type.Union([TemplateParams, Type.Null()], { description: 'an array of strings' }),
  ),
  SenderId: OptionalString,
  ExtendCode: OptionalString,
  UserId: OptionalString,
});
const Group = Type.Object({
  TemplateId: Type.String({ minLength: 1, maxLength: 64 }),
  SenderId: OptionalString,
  Target: Type.Array(Target, { minItems: 1 }),
});
/** The answer; its Message says how many numbers failed when some did. */
const BatchAnswer = Obj({
  SessionNo: Type.String({ description: "the batch's id: GetUSMSSendReceipt takes it" }),
  ReqUuid: Type.String(),
  SuccessCount: Type.Integer({ minimum: 1 }),
  FailContent: Type.Array(BatchInfoSchema, { description: 'the groups and numbers refused' }),
});
const Input = Type.Object({
  TaskContent: Type.Array(Group, { minItems: 1 }),
  ...ScheduleParams,
});

export const sendBatchUsmsMessage = defineAction(
  {
    scope: 'send',
    repeatable: 'keyed',
    summary:
      'Sends templated SMS to up to 1000 numbers in groups; refused numbers are listed in FailContent.',
    request: Input,
    answer: BatchAnswer,
  },
  async (ctx, input) =>
    sendGroups(ctx, { groups: withoutNulls(input.TaskContent), request: input }),
);

/**
 * The one way SMS are accepted over HTTP (SendBatchUSMSMessage, and SendUSMSMessage as a batch
 * of one group): the idempotency check, the plan, and the durable store. `shape` turns the
 * batch's answer into the Action's own, which is what an Idempotency-Key replays.
 */
export async function sendGroups(
  ctx: ActionContext,
  send: {
    groups: TaskCountModal[];
    /** The request as validated: what the Idempotency-Key is bound to; its SendAt and validity. */
    request: Parameters<typeof scheduleIn>[1];
    shape?: (answer: BatchAnswer) => Record<string, unknown>;
  },
): Promise<Record<string, unknown>> {
  const { groups, shape = (a: BatchAnswer): Record<string, unknown> => ({ ...a }) } = send;
  const total = groups.reduce((n, g) => n + g.Target.length, 0);
  if (total > MAX_NUMBERS_PER_REQUEST) {
    throw new WirebirdError(
      'LimitExceeded',
      `TaskContent holds ${total} numbers; at most ${MAX_NUMBERS_PER_REQUEST} are allowed per request`,
    );
  }
  const schedule = scheduleIn(ctx, send.request);
  const idem = idempotencyOf(ctx, send.request);
  const replayed = await findReplay(ctx, idem);
  if (replayed) return replayed;

  const intake = smsIntakeOf(ctx.deps);
  const plan = await planGroups(intake, ctx.accountId, groups);
  const reqUuid = ctx.deps.ids.uuid();
  const failed = { ReqUuid: reqUuid, SuccessCount: 0, FailContent: plan.failContent };
  if (plan.accepted.length === 0) {
    throw new WirebirdError('NothingAccepted', nothingAccepted(total, plan.failContent), failed);
  }
  const sessionNo = intake.newSessionNo();
  const answer = shape({
    ...(plan.failedCount > 0
      ? { Message: `${plan.failedCount} of ${total} numbers failed; see FailContent` }
      : {}),
    SessionNo: sessionNo,
    ReqUuid: reqUuid,
    SuccessCount: plan.accepted.length,
    FailContent: plan.failContent,
  });
  const session = { accountId: ctx.accountId, sessionNo, messages: plan.accepted, ...schedule };
  return acceptOnce(ctx, idem, {
    answer,
    store: (record) => storeSms(intake, session, record),
  });
}

export interface BatchAnswer {
  Message?: string;
  SessionNo: string;
  ReqUuid: string;
  SuccessCount: number;
  FailContent: BatchInfo[];
}

function nothingAccepted(total: number, failContent: BatchInfo[]): string {
  const groupReasons = [...new Set(failContent.map((g) => g.FailureDetails ?? ''))];
  // Every group failed for one reason of its own (an unknown TemplateId, say): that is the answer.
  if (groupReasons.length === 1 && groupReasons[0]) {
    return `no message was accepted: ${groupReasons[0]}; see FailContent`;
  }
  if (total !== 1) return `no message was accepted: all ${total} numbers failed; see FailContent`;
  // One number: its reason is the answer, as a client of a single send reads only Message.
  const info = failContent[0];
  const reason = info?.FailureDetails ?? info?.Target[0]?.FailureDetails;
  return `no message was accepted: the number failed${reason ? `: ${reason}` : ''}; see FailContent`;
}

function withoutNulls(groups: Static<typeof Input>['TaskContent']): TaskCountModal[] {
  const some = <T>(v: T | null | undefined): T | undefined => v ?? undefined;
  return groups.map((g) => ({
    TemplateId: g.TemplateId,
    SenderId: some(g.SenderId),
    Target: g.Target.map((t) => ({
      Phone: t.Phone,
      TemplateParams: some(t.TemplateParams),
      SenderId: some(t.SenderId),
      ExtendCode: some(t.ExtendCode),
      UserId: some(t.UserId),
    })),
  }));
}
