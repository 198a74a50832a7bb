import type { TemplateStore } from '../../domain/ports.js';
import {
  TEMPLATE_COLUMNS as COLUMNS,
  fromRow,
  replaceArgs,
  toRow,
  type TemplateRow,
} from '../rows/templates.js';
import { reviewedWhere } from '../rows/reviewed.js';
import { ownedDeleter } from './owned-rows.js';
import type { Db } from './database.js';
import type { SqliteOutbox } from './outbox.js';

export function sqliteTemplates(db: Db, outbox: SqliteOutbox): TemplateStore {
  const marks = COLUMNS.split(',')
    .map(() => '?')
    .join(',');
  const insert = db.prepare(`INSERT INTO templates (${COLUMNS}) VALUES (${marks})`);
  const byId = db.prepare<unknown[], TemplateRow>(
    `SELECT ${COLUMNS} FROM templates WHERE template_id = ?`,
  );
  const replace = db.prepare(
    `UPDATE templates SET template_name = ?, template = ?, status = ?, remark = ?, err_desc = ?,
       instruction = ?, unsubscribe_info = ?, updated_at = ?, version = version + 1
     WHERE template_id = ? AND version = ?`,
  );

  return {
    deleteTemplates: ownedDeleter(db, 'templates', 'template_id'),
    async insertTemplate(t) {
      insert.run(...toRow(t));
    },
    async getTemplates(accountId, templateIds) {
      if (templateIds.length === 0) return [];
      const ids = templateIds.map(() => '?').join(',');
      const rows = db
        .prepare<unknown[], TemplateRow>(
          `SELECT ${COLUMNS} FROM templates WHERE account_id = ? AND template_id IN (${ids})`,
        )
        .all(accountId, ...templateIds);
      return rows.map(fromRow);
    },
    async getTemplateById(templateId) {
      const row = byId.get(templateId);
      return row && fromRow(row);
    },
    replaceTemplate: async (t, event) =>
      db.transaction(() => {
        if (replace.run(...replaceArgs(t)).changes !== 1) return undefined;
        if (event) outbox.emit(event, t.updatedAt);
        return { ...t, version: t.version + 1 };
      })(),

    async listTemplates(filter) {
      const { where, args } = reviewedWhere(filter, () => '?');
      const sql = `SELECT ${COLUMNS} FROM templates ${where} ORDER BY created_at, template_id`;
      return db
        .prepare<unknown[], TemplateRow>(sql)
        .all(...args)
        .map(fromRow);
    },
  };
}
