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
import { inTransaction, type Pool } from './database.js';
import { emitEvents } from './outbox.js';

const VALUES = COLUMNS.split(',')
  .map((_, i) => `$${i + 1}`)
  .join(',');

export function postgresTemplates(pool: Pool): TemplateStore {
  const select = async (where: string, args: unknown[]) => {
    const r = await pool.query<TemplateRow>(
      `SELECT ${COLUMNS} FROM templates ${where} ORDER BY created_at, template_id`,
      args,
    );
    return r.rows.map(fromRow);
  };
  return {
    deleteTemplates: ownedDeleter(pool, 'templates', 'template_id'),
    async insertTemplate(t) {
      await pool.query(`INSERT INTO templates (${COLUMNS}) VALUES (${VALUES})`, toRow(t));
    },
    async getTemplates(accountId, templateIds) {
      if (templateIds.length === 0) return [];
      return select('WHERE account_id = $1 AND template_id = ANY($2::text[])', [
        accountId,
        templateIds,
      ]);
    },
    async getTemplateById(templateId) {
      return (await select('WHERE template_id = $1', [templateId]))[0];
    },
    replaceTemplate: async (t, event) =>
      inTransaction(pool, async (c) => {
        // Compare-and-set on the version: of two concurrent saves from one read, one wins.
        const r = await c.query(
          `UPDATE templates SET template_name = $1, template = $2, status = $3, remark = $4,
           err_desc = $5, instruction = $6, unsubscribe_info = $7, updated_at = $8,
           version = version + 1
         WHERE template_id = $9 AND version = $10`,
          replaceArgs(t),
        );
        if (r.rowCount !== 1) return undefined;
        if (event) await emitEvents(c, [event], t.updatedAt);
        return { ...t, version: t.version + 1 };
      }),

    async listTemplates(filter) {
      const { where, args } = reviewedWhere(filter, (n) => `$${n}`);
      return select(where, args);
    },
  };
}
