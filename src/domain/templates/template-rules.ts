import { invalid, missing, WirebirdError } from '../errors.js';
import { charCount } from './char-count.js';
import { TemplateStatus, type Purpose, type Template } from './template.js';
import { checkVariables } from './variables.js';

/** Length limits in characters as charCount counts them (the spec's Limits table). */
export const TemplateLimits = {
  templateName: 32,
  /** Create allows 500, update 600: the spec states both. */
  createTemplate: 500,
  updateTemplate: 600,
  remark: 128,
  /** Not in the spec; bounded like the content so a stored row cannot grow without limit. */
  instruction: 500,
} as const;

export interface CreateTemplateInput {
  purpose: number;
  templateName: string;
  template: string;
  remark?: string;
  instruction?: string;
  international?: boolean;
  unsubscribeInfo?: string;
  /**
   * The UCloud SDKs document UnsubscribeInfo as required for a domestic promotion template; the
   * spec's JSON API has no such field, so only the UCloud dialect asks for it (docs/ucloud-sdk.md).
   */
  requireUnsubscribeInfo?: boolean;
}

export interface UpdateTemplateInput {
  templateName?: string;
  template?: string;
  remark?: string;
  instruction?: string;
  unsubscribeInfo?: string;
}

/** The values UCloud's UnsubscribeInfo takes (the SDK: 枚举值：【拒收请回复R】). */
export const UNSUBSCRIBE_INFOS: readonly string[] = ['拒收请回复R'];

function checkUnsubscribeInfo(value: string | undefined, required: boolean): string {
  if (value === undefined || value === '') {
    if (required) {
      throw missing(
        `UnsubscribeInfo (a domestic promotion template, Purpose 3 with International false, needs "${UNSUBSCRIBE_INFOS[0]}")`,
      );
    }
    return '';
  }
  if (!UNSUBSCRIBE_INFOS.includes(value)) {
    throw invalid(
      'UnsubscribeInfo',
      `must be ${UNSUBSCRIBE_INFOS.map((v) => `"${v}"`).join(' or ')}`,
    );
  }
  return value;
}

function checkLength(field: string, value: string, max: number): void {
  const n = charCount(value);
  if (n > max) throw invalid(field, `must be at most ${max} characters (it has ${n})`);
}

function checkRequiredText(field: string, value: string, max: number): void {
  if (value === '') throw missing(field);
  if (value.trim() === '') throw invalid(field, 'must not be blank');
  checkLength(field, value, max);
}

function checkContent(template: string, max: number): void {
  checkRequiredText('Template', template, max);
  checkVariables(template);
}

function checkPurpose(purpose: number): Purpose {
  if (purpose === 1 || purpose === 2 || purpose === 3) return purpose;
  throw invalid('Purpose', 'must be 1 (verification), 2 (notification) or 3 (promotion)');
}

/** Checks CreateUSMSTemplate's rules and returns the new Template with status 0 (Pending), errDesc ''. */
export function newTemplate(
  input: CreateTemplateInput,
  ids: { templateId: string; accountId: number },
  now: number,
): Template {
  const purpose = checkPurpose(input.purpose);
  checkRequiredText('TemplateName', input.templateName, TemplateLimits.templateName);
  checkContent(input.template, TemplateLimits.createTemplate);
  const remark = input.remark ?? '';
  checkLength('Remark', remark, TemplateLimits.remark);
  const instruction = input.instruction ?? '';
  checkLength('Instruction', instruction, TemplateLimits.instruction);
  const international = input.international ?? false;
  const needsOptOut = input.requireUnsubscribeInfo === true && purpose === 3 && !international;
  const unsubscribeInfo = checkUnsubscribeInfo(input.unsubscribeInfo, needsOptOut);
  return {
    templateId: ids.templateId,
    accountId: ids.accountId,
    purpose,
    templateName: input.templateName,
    template: input.template,
    status: TemplateStatus.Pending,
    remark,
    errDesc: '',
    instruction,
    international,
    unsubscribeInfo,
    createdAt: now,
    updatedAt: now,
    version: 0,
  };
}

// An empty TemplateName or Template counts as not given: neither may be empty, and clients send ""
// for a field they leave alone. Remark and Instruction may legitimately be cleared, so "" is a value.
const given = (s: string | undefined): s is string => s !== undefined && s !== '';

function checkUpdateInput(input: UpdateTemplateInput): { name?: string; content?: string } {
  const name = given(input.templateName) ? input.templateName : undefined;
  const content = given(input.template) ? input.template : undefined;
  if (name === undefined && content === undefined) throw missing('TemplateName or Template');
  if (name !== undefined) checkRequiredText('TemplateName', name, TemplateLimits.templateName);
  if (content !== undefined) checkContent(content, TemplateLimits.updateTemplate);
  if (input.remark !== undefined) checkLength('Remark', input.remark, TemplateLimits.remark);
  if (input.instruction !== undefined) {
    checkLength('Instruction', input.instruction, TemplateLimits.instruction);
  }
  if (input.unsubscribeInfo !== undefined) checkUnsubscribeInfo(input.unsubscribeInfo, false);
  return { name, content };
}

/** UpdateUSMSTemplate's rules; returns the updated Template. */
export function updateTemplate(
  current: Template,
  input: UpdateTemplateInput,
  now: number,
): Template {
  // The request is judged before the template's state, as the API checks parameters first.
  const { name, content } = checkUpdateInput(input);
  if (current.status === TemplateStatus.Approved) {
    throw new WirebirdError(
      'StateConflict',
      `template ${current.templateId} is approved and cannot be updated`,
    );
  }
  // New content must be reviewed again (the spec's reset to the initial state); the old verdict
  // no longer applies to it. A rename, or resending the same content, leaves the review alone.
  const resubmitted = content !== undefined && content !== current.template;
  return {
    ...current,
    templateName: name ?? current.templateName,
    template: content ?? current.template,
    remark: input.remark ?? current.remark,
    instruction: input.instruction ?? current.instruction,
    unsubscribeInfo: input.unsubscribeInfo ?? current.unsubscribeInfo,
    ...(resubmitted ? { status: TemplateStatus.Pending, errDesc: '' } : {}),
    updatedAt: now,
  };
}
