import type { Pool } from 'pg';
import type { AuditStore } from '../../domain/ports.js';
import { AUDIT_COLUMNS, auditArgs, toAuditEntry, type AuditRow } from '../rows/audit.js';

export function postgresAudit(pool: Pool): AuditStore {
  return {
    async appendAudit(entries) {
      if (entries.length === 0) return;
      const cols = entries.map(auditArgs);
      const col = (i: number) => cols.map((c) => c[i]);
      await pool.query(
        `INSERT INTO audit_log (at, account_id, actor, action, target, detail)
         SELECT at, account_id, actor, action, target, detail
         FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[])
         WITH ORDINALITY AS e(at, account_id, actor, action, target, detail, n) ORDER BY n`,
        [col(0), col(1), col(2), col(3), col(4), col(5)],
      );
    },
    async listAudit(f) {
      const r = await pool.query<AuditRow>(
        `SELECT ${AUDIT_COLUMNS} FROM audit_log
         WHERE ($1::bigint IS NULL OR account_id = $1) AND ($2::bigint IS NULL OR audit_id < $2)
         ORDER BY audit_id DESC LIMIT $3`,
        [f.accountId ?? null, f.before ?? null, f.limit],
      );
      return r.rows.map(toAuditEntry);
    },
  };
}
