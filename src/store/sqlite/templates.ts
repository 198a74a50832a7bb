import type { TemplateStore } from '../../domain/ports.js';
import type { Purpose, Template, TemplateStatus } from '../../domain/templates/template.js';
import type { Db } from './database.js';

const COLUMNS =
  'template_id, account_id, purpose, template_name, template, status, remark, err_desc, instruction, created_at, updated_at, version';

export function sqliteTemplates(db: Db): TemplateStore {
  const insert = db.prepare(`INSERT INTO templates (${COLUMNS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM templates WHERE template_id = ?`);
  const replace = db.prepare(
    `UPDATE templates SET template_name = ?, template = ?, status = ?, remark = ?, err_desc = ?,
       instruction = ?, updated_at = ?, version = version + 1 WHERE template_id = ? AND version = ?`,
  );

  return {
    async insertTemplate(t) {
      insert.run(...toRow(t));
    },
    async getTemplates(accountId, templateIds) {
      if (templateIds.length === 0) return [];
      const marks = templateIds.map(() => '?').join(',');
      const rows = db
        .prepare(
          `SELECT ${COLUMNS} FROM templates WHERE account_id = ? AND template_id IN (${marks})`,
        )
        .all(accountId, ...templateIds) as TemplateRow[];
      return rows.map(fromRow);
    },
    async getTemplateById(templateId) {
      const row = byId.get(templateId) as TemplateRow | undefined;
      return row && fromRow(row);
    },
    async replaceTemplate(t) {
      const r = replace.run(
        t.templateName,
        t.template,
        t.status,
        t.remark,
        t.errDesc,
        t.instruction,
        t.updatedAt,
        t.templateId,
        t.version,
      );
      return r.changes === 1 ? { ...t, version: t.version + 1 } : undefined;
    },
    async listTemplates(filter) {
      const where: string[] = [];
      const args: number[] = [];
      if (filter.status !== undefined) {
        where.push('status = ?');
        args.push(filter.status);
      }
      if (filter.accountId !== undefined) {
        where.push('account_id = ?');
        args.push(filter.accountId);
      }
      const sql = `SELECT ${COLUMNS} FROM templates ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY created_at, template_id`;
      return (db.prepare(sql).all(...args) as TemplateRow[]).map(fromRow);
    },
  };
}

interface TemplateRow {
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

function toRow(t: Template): unknown[] {
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

function fromRow(r: TemplateRow): Template {
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
