import type { AuditStore } from '../../domain/ports.js';
import {
  AUDIT_COLUMNS,
  AUDIT_INSERT_COLUMNS,
  auditArgs,
  toAuditEntry,
  type AuditRow,
} from '../rows/audit.js';
import type { Db } from './database.js';

export function sqliteAudit(db: Db): AuditStore {
  const insert = db.prepare(`INSERT INTO audit_log (${AUDIT_INSERT_COLUMNS}) VALUES (?,?,?,?,?,?)`);
  const page = db.prepare<unknown[], AuditRow>(
    `SELECT ${AUDIT_COLUMNS} FROM audit_log
     WHERE (? IS NULL OR account_id = ?) AND (? IS NULL OR audit_id < ?)
     ORDER BY audit_id DESC LIMIT ?`,
  );
  return {
    async appendAudit(entries) {
      db.transaction(() => {
        for (const e of entries) insert.run(...auditArgs(e));
      })();
    },
    async listAudit(f) {
      const account = f.accountId ?? null;
      const before = f.before ?? null;
      const rows = page.all(account, account, before, before, f.limit);
      return rows.map(toAuditEntry);
    },
  };
}
