import { Type } from '@sinclair/typebox';
import type { AuditEntry } from '../domain/audit/audit.js';
import { Obj } from './answer-schemas.js';

/** What the audit log's listing answers of an entry (the admin API). */
export const AuditEntryView = Obj(
  {
    AuditId: Type.Integer({ minimum: 1 }),
    Time: Type.Integer({ minimum: 0, description: 'Unix seconds' }),
    AccountId: Type.Union([Type.Integer(), Type.Null()]),
    Actor: Type.String({
      description: 'key:<KeyId>, ucloud, admin, console:admin, console:<KeyId>, cli or config',
    }),
    Action: Type.String({ description: '<thing>.<verb>, such as template.created or key.revoked' }),
    Target: Type.String(),
    Detail: Type.Record(Type.String(), Type.Unknown()),
  },
  { title: 'AuditEntry' },
);

export function auditView(e: AuditEntry): Record<string, unknown> {
  return {
    AuditId: e.id,
    Time: Math.floor(e.at / 1000),
    AccountId: e.accountId ?? null,
    Actor: e.actor,
    Action: e.action,
    Target: e.target,
    Detail: e.detail,
  };
}
