/** Rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { Purpose, Template, TemplateStatus } from '../../domain/templates/template.js';

export interface TemplateRow {
  template_id: string;
  account_id: number;
  purpose: number;
  template_name: string;
  template: string;
  status: number;
  remark: string;
  err_desc: string;
  instruction: string;
  created_at: number;
  updated_at: number;
  version: number;
}

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
    t.createdAt,
    t.updatedAt,
    t.version,
  ];
}

export function fromRow(r: TemplateRow): Template {
  return {
    templateId: r.template_id,
    accountId: r.account_id,
    purpose: r.purpose as Purpose,
    templateName: r.template_name,
    template: r.template,
    status: r.status as TemplateStatus,
    remark: r.remark,
    errDesc: r.err_desc,
    instruction: r.instruction,
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
    t.updatedAt,
    t.templateId,
    t.version,
  ];
}
