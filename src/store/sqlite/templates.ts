import type { TemplateStore } from '../../domain/ports.js';
import { fromRow, replaceArgs, toRow, type TemplateRow } from '../rows/templates.js';
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
      const r = replace.run(...replaceArgs(t));
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
