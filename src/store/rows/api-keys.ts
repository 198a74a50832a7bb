import type { KeyRecord, KeyKind, KeyScope, KeySource } from '../../domain/keys/key-record.js';

export interface ApiKeyRow {
  key_id: string;
  kind: KeyKind;
  account_id: number;
  key_hash: string;
  name: string;
  prefix: string;
  scopes: string;
  source: KeySource;
  created_at: number;
  expires_at: number | null;
  revoked_at: number | null;
  revoked_reason: string;
  last_used_at: number | null;
}

export const API_KEY_COLUMNS = `key_id, kind, account_id, key_hash, name, prefix, scopes, source,
  created_at, expires_at, revoked_at, revoked_reason, last_used_at`;

/**
 * Adds a credential's key record (its values: apiKeyArgs), `mark` writing the dialect's
 * placeholders; a credential replaced later keeps the record it has, and its state.
 */
export const insertKeyRecordSql = (mark: (n: number) => string): string =>
  `INSERT INTO api_keys (${API_KEY_COLUMNS})
   VALUES (${API_KEY_COLUMNS.split(',')
     .map((_, i) => mark(i + 1))
     .join(',')})
   ON CONFLICT (key_hash) DO NOTHING`;

/** The values of API_KEY_COLUMNS, in order. */
export function apiKeyArgs(k: KeyRecord): unknown[] {
  return [
    k.keyId,
    k.kind,
    k.accountId,
    k.keyHash,
    k.name,
    k.prefix,
    k.scopes.join(','),
    k.source,
    k.createdAt,
    k.expiresAt ?? null,
    k.revokedAt ?? null,
    k.revokedReason,
    k.lastUsedAt ?? null,
  ];
}

const opt = (v: number | null) => v ?? undefined;

export function toApiKey(r: ApiKeyRow): KeyRecord {
  return {
    keyId: r.key_id,
    kind: r.kind,
    accountId: r.account_id,
    keyHash: r.key_hash,
    name: r.name,
    prefix: r.prefix,
    // Written from a list of KeyScope by apiKeyArgs.
    scopes: r.scopes === '' ? [] : (r.scopes.split(',') as KeyScope[]),
    source: r.source,
    createdAt: r.created_at,
    expiresAt: opt(r.expires_at),
    revokedAt: opt(r.revoked_at),
    revokedReason: r.revoked_reason,
    lastUsedAt: opt(r.last_used_at),
  };
}
