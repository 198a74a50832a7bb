import type { Store } from '../domain/ports.js';

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
