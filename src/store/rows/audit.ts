import type { AuditEntry, NewAuditEntry } from '../../domain/audit/audit.js';

export interface AuditRow {
  audit_id: number;
  at: number;
  account_id: number | null;
  actor: string;
  action: string;
  target: string;
  detail: string;
}

export const AUDIT_INSERT_COLUMNS = 'at, account_id, actor, action, target, detail';
export const AUDIT_COLUMNS = `audit_id, ${AUDIT_INSERT_COLUMNS}`;

export function auditArgs(e: NewAuditEntry): unknown[] {
  return [e.at, e.accountId ?? null, e.actor, e.action, e.target, JSON.stringify(e.detail)];
}

export function toAuditEntry(r: AuditRow): AuditEntry {
  return {
    id: r.audit_id,
    at: r.at,
    accountId: r.account_id === null ? undefined : r.account_id,
    actor: r.actor,
    action: r.action,
    target: r.target,
    // Written by JSON.stringify of the detail of the audit fact.
    detail: JSON.parse(r.detail) as Record<string, unknown>,
  };
}
