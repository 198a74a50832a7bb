/**
 * The audit log (docs/security.md): who created, changed, approved, revoked or replayed what,
 * and when. Written after the change succeeded; never holds a secret (a key, a password, a
 * webhook secret or a private key), only ids and the fields that changed.
 */
export interface AuditEntry {
  /** Set by the store; 0 before it is written. */
  id: number;
  at: number;
  /** The account the change was to; undefined for the gateway's own (console sessions). */
  accountId: number | undefined;
  /**
   * Who: `key:<KeyId>` (an API key), `ucloud:<PublicKey>` (a signed request), `admin` (the admin
   * API), `console:admin` or `console:<KeyId>`, `cli`, `config` (the environment at start).
   */
  actor: string;
  /** What, as `<thing>.<verb>`: `template.created`, `key.revoked`, `webhook.replayed`, … */
  action: string;
  /** The id of the thing changed (a TemplateId, a KeyId, an EndpointId, a phone, …). */
  target: string;
  /** What changed, as JSON-able fields; never a secret. */
  detail: Record<string, unknown>;
}

export type NewAuditEntry = Omit<AuditEntry, 'id'>;

export interface AuditFilter {
  accountId?: number;
  /** Entries older than this id (the page before). */
  before?: number;
  limit: number;
}

export const AUDIT_PAGE_MAX = 1000;
