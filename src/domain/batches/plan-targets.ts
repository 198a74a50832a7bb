import type { AcceptedSms } from '../messages/message.js';
import { normalizePhone } from '../phones/phones.js';
import { costCount } from '../segments/segments.js';
import { parseVariables, renderTemplate } from '../templates/variables.js';
import { MAX_USER_ID_LENGTH, type FailPhoneDetail, type TargetModal } from './batch.js';

/** The number-level work of one group whose group checks passed: pure, so any thread may do it. */
export interface TargetsJob {
  templateId: string;
  /** The template's text, with its {1}…{n} variables. */
  template: string;
  groupSenderId: string | undefined;
  targets: readonly TargetModal[];
  defaultRegion: string;
}

/** An accepted number before routing: the route is the caller's to choose. */
export type PlannedSms = Omit<AcceptedSms, 'route'>;

export interface TargetsPlan {
  accepted: PlannedSms[];
  failed: FailPhoneDetail[];
}

/** Checks, normalises and renders each number of a group; a failing number fails only itself. */
export function planTargets(job: TargetsJob): TargetsPlan {
  const { paramCount } = parseVariables(job.template);
  const plan: TargetsPlan = { accepted: [], failed: [] };
  for (const target of job.targets) {
    const params = (target.TemplateParams ?? []).map(String);
    const problem = checkTarget(target, params, paramCount);
    const phone = problem ? undefined : normalizePhone(target.Phone, job.defaultRegion);
    if (problem || !phone?.ok) {
      plan.failed.push(
        failDetail(target, problem ?? `Phone ${phone && !phone.ok ? phone.reason : 'is invalid'}`),
      );
      continue;
    }
    const text = renderTemplate(job.template, params);
    plan.accepted.push({
      phone: target.Phone,
      e164: phone.e164,
      templateId: job.templateId,
      params,
      senderId: isGiven(target.SenderId) ? target.SenderId : (job.groupSenderId ?? ''),
      extendCode: target.ExtendCode ?? '',
      userId: target.UserId ?? '',
      text,
      costCount: costCount(text),
    });
  }
  return plan;
}

function checkTarget(t: TargetModal, params: string[], paramCount: number): string | undefined {
  if (paramCount === 0 && params.length > 0) {
    return 'TemplateParams must not be passed: the template has no variables';
  }
  if (params.length !== paramCount) {
    return `TemplateParams has ${params.length} values; the template needs ${paramCount}`;
  }
  if (t.ExtendCode && !/^\d{1,6}$/.test(t.ExtendCode)) return 'ExtendCode must be 1 to 6 digits';
  if (t.UserId && [...t.UserId].length > MAX_USER_ID_LENGTH) {
    return `UserId must be at most ${MAX_USER_ID_LENGTH} characters`;
  }
  return undefined;
}

export function failDetail(t: TargetModal, reason: string): FailPhoneDetail {
  return {
    TemplateParams: (t.TemplateParams ?? []).map(String),
    Phone: t.Phone,
    ExtendCode: t.ExtendCode ?? '',
    UserId: t.UserId ?? '',
    FailureDetails: reason,
  };
}

export function isGiven(s: string | undefined): s is string {
  return s !== undefined && s !== '';
}
