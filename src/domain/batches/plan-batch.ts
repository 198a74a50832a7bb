import type { AcceptedSms } from '../messages/message.js';
import { TemplateStatus, type Template } from '../templates/template.js';
import type { BatchInfo, TaskCountModal } from './batch.js';
import {
  failDetail,
  isGiven,
  planTargets,
  type TargetsJob,
  type TargetsPlan,
} from './plan-targets.js';

export interface BatchContext {
  /** The account's own templates among those the request names. */
  templates: ReadonlyMap<string, Template>;
  /** The sender ids the request names that are registered for the account. */
  senderIds: ReadonlySet<string>;
  defaultRegion: string;
  route(e164: string, senderId: string): string;
}

export interface BatchPlan {
  accepted: AcceptedSms[];
  failContent: BatchInfo[];
  failedCount: number;
}

/** Does the number-level work of several groups, in order; on this thread unless given another. */
export type TargetsPlanner = (jobs: readonly TargetsJob[]) => Promise<TargetsPlan[]>;

export const planHere: TargetsPlanner = async (jobs) => jobs.map(planTargets);

/**
 * Decides, group by group and number by number, what a SendBatchUSMSMessage accepts. A failing
 * group check (template, sender id) fails the whole group; a failing number fails only itself.
 */
export async function planBatch(
  groups: readonly TaskCountModal[],
  ctx: BatchContext,
  planner: TargetsPlanner = planHere,
): Promise<BatchPlan> {
  const checked = groups.map((group) => ({ group, failure: checkGroup(group, ctx) }));
  const jobs = checked
    .filter((c) => c.failure === undefined)
    .map(({ group }) => jobOf(group, ctx.templates.get(group.TemplateId) as Template, ctx));
  const plans = await planner(jobs);
  const plan: BatchPlan = { accepted: [], failContent: [], failedCount: 0 };
  let next = 0;
  for (const { group, failure } of checked) {
    const info = { TemplateId: group.TemplateId, SenderId: group.SenderId ?? '' };
    if (failure !== undefined) {
      const Target = group.Target.map((t) => failDetail(t, ''));
      plan.failContent.push({ ...info, Target, FailureDetails: failure });
      plan.failedCount += Target.length;
      continue;
    }
    const { accepted, failed } = plans[next++] as TargetsPlan;
    for (const m of accepted) plan.accepted.push({ ...m, route: ctx.route(m.e164, m.senderId) });
    if (failed.length > 0) {
      plan.failContent.push({ ...info, Target: failed });
      plan.failedCount += failed.length;
    }
  }
  return plan;
}

function jobOf(group: TaskCountModal, template: Template, ctx: BatchContext): TargetsJob {
  return {
    templateId: template.templateId,
    template: template.template,
    groupSenderId: group.SenderId,
    targets: group.Target,
    defaultRegion: ctx.defaultRegion,
  };
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
