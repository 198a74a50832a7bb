/** Rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { Purpose, Template, TemplateStatus } from '../../domain/templates/template.js';

export interface TemplateRow {
  template_id: string;
  account_id: number;
  purpose: Purpose;
  template_name: string;
  template: string;
  status: TemplateStatus;
  remark: string;
  err_desc: string;
  instruction: string;
  international: number;
  unsubscribe_info: string;
  created_at: number;
  updated_at: number;
  version: number;
}

/** The columns both adapters read and write, in the order toRow gives them. */
export const TEMPLATE_COLUMNS =
  'template_id, account_id, purpose, template_name, template, status, remark, err_desc, instruction, international, unsubscribe_info, created_at, updated_at, version';

export function toRow(t: Template): unknown[] {
  return [
    t.templateId,
    t.accountId,
    t.purpose,
    t.templateName,
    t.template,
    t.status,
    t.remark,
    t.errDesc,
    t.instruction,
    t.international ? 1 : 0,
    t.unsubscribeInfo,
    t.createdAt,
    t.updatedAt,
    t.version,
  ];
}

export function fromRow(r: TemplateRow): Template {
  return {
    templateId: r.template_id,
    accountId: r.account_id,
    purpose: r.purpose,
    templateName: r.template_name,
    template: r.template,
    status: r.status,
    remark: r.remark,
    errDesc: r.err_desc,
    instruction: r.instruction,
    international: r.international === 1,
    unsubscribeInfo: r.unsubscribe_info,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
  };
}

/** Parameters of the compare-and-set save, in the order both adapters' UPDATE takes them. */
export function replaceArgs(t: Template): unknown[] {
  return [
    t.templateName,
    t.template,
    t.status,
    t.remark,
    t.errDesc,
    t.instruction,
    t.unsubscribeInfo,
    t.updatedAt,
    t.templateId,
    t.version,
  ];
}
