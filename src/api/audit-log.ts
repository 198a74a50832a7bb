import { Type } from '@sinclair/typebox';
import type { AuditEntry } from '../domain/audit/audit.js';
import type { Store } from '../domain/ports.js';
import { Obj } from './answer-schemas.js';

/** What a change says of itself for the audit log (domain/audit/audit.ts); never a secret. */
export interface AuditFact {
  action: string;
  target: string;
  detail?: Record<string, unknown>;
  /** The account changed, when it is not the caller's own (the admin API, the console, the CLI). */
  accountId?: number;
}

/** Who made a change: the actor and, for a caller that is an account, its account. */
export interface Actor {
  actor: string;
  accountId?: number;
}

/**
 * Appends one entry, after the change it records succeeded. The change and its entry are two
 * writes: a crash between them loses the entry, never the change (docs/security.md).
 */
export async function audit(
  deps: { store: Pick<Store, 'appendAudit'>; clock: { now(): number } },
  who: Actor,
  fact: AuditFact,
): Promise<void> {
  await deps.store.appendAudit([
    {
      at: deps.clock.now(),
      accountId: fact.accountId ?? who.accountId,
      actor: who.actor,
      action: fact.action,
      target: fact.target,
      detail: fact.detail ?? {},
    },
  ]);
}

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
