import { Type, type Static } from '@sinclair/typebox';
import {
  MAX_NUMBERS_PER_REQUEST,
  type BatchInfo,
  type TaskCountModal,
} from '../../domain/batches/batch.js';
import { WirebirdError } from '../../domain/errors.js';
import { defineAction, type ActionContext } from '../context.js';
import { draftFor, findReplay, idempotencyOf, replay, type Idempotency } from '../idempotency.js';
import { BatchInfo as BatchInfoSchema, Obj } from '../answer-schemas.js';
import { TemplateParams } from './schema-types.js';
import { planGroups, storeSms } from '../../core/accept-sms.js';
import { RULE_RET_CODES, refusedContent, soleRule } from '../../core/policy-refusals.js';
import { RULE_FIELDS, type PolicyRefusal } from '../../domain/accounts/policy.js';
import type { BatchPlan } from '../../domain/batches/plan-batch.js';
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
  const answerFor = (refused: readonly PolicyRefusal[]) => {
    const failContent = [...plan.failContent, ...refusedContent(plan.accepted, refused)];
    const failedCount = plan.failedCount + refused.length;
    return shape({
      ...(failedCount > 0
        ? { Message: `${failedCount} of ${total} numbers failed; see FailContent` }
        : {}),
      SessionNo: sessionNo,
      ReqUuid: reqUuid,
      SuccessCount: plan.accepted.length - refused.length,
      FailContent: failContent,
    });
  };
  const session = { accountId: ctx.accountId, sessionNo, messages: plan.accepted, ...schedule };
  const outcome = await storeSms(intake, session, draftFor(ctx, idem, answerFor));
  // Only a request with an Idempotency-Key can lose a race to its twin.
  if ('raced' in outcome) return replay(idem as Idempotency, outcome.raced);
  if (outcome.refused.length < plan.accepted.length) return answerFor(outcome.refused);
  throw policyRefusedAll({ total, plan, refused: outcome.refused, reqUuid });
}

/** Every number the plan accepted was refused by the account's policy: nothing was stored. */
function policyRefusedAll(r: {
  total: number;
  plan: BatchPlan;
  refused: readonly PolicyRefusal[];
  reqUuid: string;
}): WirebirdError {
  const failContent = [...r.plan.failContent, ...refusedContent(r.plan.accepted, r.refused)];
  const details = { ReqUuid: r.reqUuid, SuccessCount: 0, FailContent: failContent };
  const rule = r.plan.failedCount === 0 ? soleRule(r.refused) : undefined;
  const first = r.refused[0]?.reason ?? '';
  if (rule === undefined) {
    return new WirebirdError('NothingAccepted', nothingAccepted(r.total, failContent), details);
  }
  const message =
    r.total === 1
      ? `no message was accepted: ${first}`
      : `no message was accepted: all ${r.total} numbers were refused by the account's policy (${RULE_FIELDS[rule]}), e.g. ${first}; see FailContent`;
  return new WirebirdError(RULE_RET_CODES[rule], message, details);
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
