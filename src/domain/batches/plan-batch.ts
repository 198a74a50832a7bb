import { senderIdKind } from '../accounts/sender-id.js';
import { RetCode } from '../errors.js';
import type { AcceptedSms } from '../messages/message.js';
import { optedOutReason } from '../opt-out/opt-out.js';
import { normalizePhone } from '../phones/phones.js';
import { costCount } from '../segments/segments.js';
import { TemplateStatus, type Template } from '../templates/template.js';
import { parseVariables, renderTemplate } from '../templates/variables.js';
import {
  MAX_USER_ID_LENGTH,
  type BatchInfo,
  type FailPhoneDetail,
  type TargetModal,
  type TaskCountModal,
} from './batch.js';

export interface BatchContext {
  /** The account's own templates among those the request names. */
  templates: ReadonlyMap<string, Template>;
  /** The sender ids the request names that are registered for the account. */
  senderIds: ReadonlySet<string>;
  defaultRegion: string;
  /** The most segments one message may have (a concatenated SMS has at most 255 parts). */
  maxSegments: number;
  route(e164: string, senderId: string): string;
  /** The request's numbers (E.164) that opted out of the account's messages. */
  optedOut: ReadonlySet<string>;
  /** Verification codes (Purpose 1) still go to numbers that opted out. */
  verificationExempt: boolean;
}

export interface BatchPlan {
  accepted: AcceptedSms[];
  failContent: BatchInfo[];
  failedCount: number;
}

/**
 * Decides, group by group and number by number, what a SendBatchUSMSMessage accepts. A failing
 * group check (template, sender id) fails the whole group; a failing number fails only itself.
 */
export function planBatch(groups: readonly TaskCountModal[], ctx: BatchContext): BatchPlan {
  const plan: BatchPlan = { accepted: [], failContent: [], failedCount: 0 };
  for (const group of groups) {
    const groupFailure = checkGroup(group, ctx);
    if (groupFailure) {
      plan.failContent.push({
        TemplateId: group.TemplateId,
        SenderId: group.SenderId ?? '',
        Target: group.Target.map((t) => failDetail(t, '')),
        FailureDetails: groupFailure,
      });
      plan.failedCount += group.Target.length;
      continue;
    }
    // The check above refused a group whose TemplateId is not in ctx.templates.
    const template = ctx.templates.get(group.TemplateId) as Template;
    const failed = planTargets(group, template, ctx, plan.accepted);
    if (failed.length > 0) {
      plan.failContent.push({
        TemplateId: group.TemplateId,
        SenderId: group.SenderId ?? '',
        Target: failed,
      });
      plan.failedCount += failed.length;
    }
  }
  return plan;
}

function checkGroup(group: TaskCountModal, ctx: BatchContext): string | undefined {
  const t = ctx.templates.get(group.TemplateId);
  if (!t) return `TemplateId ${group.TemplateId} not found`;
  if (t.status !== TemplateStatus.Approved) {
    return `TemplateId ${group.TemplateId} is not approved (Status ${t.status})`;
  }
  const named = [group.SenderId, ...group.Target.map((x) => x.SenderId)].filter(isGiven);
  const unknown = named.find((s) => !ctx.senderIds.has(s));
  return unknown === undefined
    ? undefined
    : `SenderId ${unknown} is not registered for this account`;
}

function planTargets(
  group: TaskCountModal,
  template: Template,
  ctx: BatchContext,
  out: AcceptedSms[],
) {
  const { paramCount } = parseVariables(template.template);
  const failed: FailPhoneDetail[] = [];
  for (const target of group.Target) {
    const params = (target.TemplateParams ?? []).map(String);
    const problem = checkTarget(target, params, paramCount);
    const phone = problem ? undefined : normalizePhone(target.Phone, ctx.defaultRegion);
    if (problem || !phone?.ok) {
      failed.push(
        failDetail(target, problem ?? `Phone ${phone && !phone.ok ? phone.reason : 'is invalid'}`),
      );
      continue;
    }
    if (ctx.optedOut.has(phone.e164) && !(template.purpose === 1 && ctx.verificationExempt)) {
      failed.push(failDetail(target, optedOutReason(phone.e164, RetCode.OptedOut)));
      continue;
    }
    const named = isGiven(target.SenderId) ? target.SenderId : (group.SenderId ?? '');
    const { senderId, text } = signed(named, renderTemplate(template.template, params));
    const segments = costCount(text);
    if (segments > ctx.maxSegments) {
      failed.push(failDetail(target, tooLong(segments, ctx.maxSegments)));
      continue;
    }
    out.push({
      phone: target.Phone,
      e164: phone.e164,
      route: ctx.route(phone.e164, senderId),
      templateId: template.templateId,
      params,
      senderId,
      extendCode: target.ExtendCode ?? '',
      userId: target.UserId ?? '',
      text,
      costCount: segments,
      country: phone.country,
    });
  }
  return failed;
}

/**
 * A sender that cannot stand in a source address (an approved signature in Chinese characters,
 * say) is shown the way Chinese carriers show signatures: 【signature】 at the head of the text,
 * sent from the route's default sender (docs/ucloud-sdk.md, "Signatures").
 */
function signed(senderId: string, text: string): { senderId: string; text: string } {
  if (senderId === '' || senderIdKind(senderId) !== undefined) return { senderId, text };
  return { senderId: '', text: `【${senderId}】${text}` };
}

function tooLong(segments: number, max: number): string {
  return `message too long (RetCode ${RetCode.MessageTooLong}): the rendered text needs ${segments} segments; at most ${max} are sent per message`;
}

function checkTarget(t: TargetModal, params: string[], paramCount: number): string | undefined {
  if (paramCount === 0 && params.length > 0) {
    return 'TemplateParams must not be passed: the template has no variables';
  }
  if (params.length !== paramCount) {
    return `TemplateParams has ${params.length} values; the template needs ${paramCount}`;
  }
  if (t.ExtendCode && !/^\d{1,6}$/.test(t.ExtendCode)) return 'ExtendCode must be 1 to 6 digits';
  if (t.UserId && Array.from(t.UserId).length > MAX_USER_ID_LENGTH) {
    return `UserId must be at most ${MAX_USER_ID_LENGTH} characters`;
  }
  return undefined;
}

function failDetail(t: TargetModal, reason: string): FailPhoneDetail {
  return {
    TemplateParams: (t.TemplateParams ?? []).map(String),
    Phone: t.Phone,
    ExtendCode: t.ExtendCode ?? '',
    UserId: t.UserId ?? '',
    FailureDetails: reason,
  };
}

function isGiven(s: string | undefined): s is string {
  return s !== undefined && s !== '';
}
