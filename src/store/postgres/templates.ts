import type { TemplateStore } from '../../domain/ports.js';
import { fromRow, replaceArgs, toRow, type TemplateRow } from '../rows/templates.js';
import type { Pool } from './database.js';

const COLUMNS =
  'template_id, account_id, purpose, template_name, template, status, remark, err_desc, instruction, created_at, updated_at, version';

export function postgresTemplates(pool: Pool): TemplateStore {
  const select = async (where: string, args: unknown[]) => {
    const r = await pool.query<TemplateRow>(
      `SELECT ${COLUMNS} FROM templates ${where} ORDER BY created_at, template_id`,
      args,
    );
    return r.rows.map(fromRow);
  };
  return {
    async insertTemplate(t) {
      await pool.query(
        `INSERT INTO templates (${COLUMNS}) VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12)`,
        toRow(t),
      );
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
    async replaceTemplate(t) {
      // Compare-and-set on the version: of two concurrent saves from one read, one wins.
      const r = await pool.query(
        `UPDATE templates SET template_name = $1, template = $2, status = $3, remark = $4,
           err_desc = $5, instruction = $6, updated_at = $7, version = version + 1
         WHERE template_id = $8 AND version = $9`,
        replaceArgs(t),
      );
      return r.rowCount === 1 ? { ...t, version: t.version + 1 } : undefined;
    },
    async listTemplates(filter) {
      const where: string[] = [];
      const args: number[] = [];
      if (filter.status !== undefined) {
        args.push(filter.status);
        where.push(`status = $${args.length}`);
      }
      if (filter.accountId !== undefined) {
        args.push(filter.accountId);
        where.push(`account_id = $${args.length}`);
      }
      return select(where.length ? 'WHERE ' + where.join(' AND ') : '', args);
    },
  };
}
