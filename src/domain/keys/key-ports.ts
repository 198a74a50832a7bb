/** The store's side of key records (domain/keys/key-record.ts). Part of the Store (domain/ports.ts). */
import type { KeyKind, KeyRecord } from './key-record.js';

/** What changes on a key after its creation: its name, its expiry (rotation), its revocation. */
export interface ApiKeyChange {
  name?: string;
  expiresAt?: number;
  revokedAt?: number;
  revokedReason?: string;
}

/**
 * Key records of every kind: API keys, SMPP credentials, UCloud key pairs
 * (domain/keys/key-record.ts, docs/security.md).
 */
export interface ApiKeyStore {
  /** Refused (throws) when the hash or the id is taken. */
  insertApiKey(key: KeyRecord): Promise<void>;
  /** Revoked and expired keys too: the caller tells the client which it was. */
  apiKeyByHash(keyHash: string): Promise<KeyRecord | undefined>;
  /** An account's keys, oldest first; every account's when undefined (the operator). */
  listApiKeys(accountId: number | undefined): Promise<KeyRecord[]>;
  /** The account's key after the change; undefined when it has no such key. A revoked key stays revoked. */
  updateApiKey(
    accountId: number,
    keyId: string,
    change: ApiKeyChange,
  ): Promise<KeyRecord | undefined>;
  /** When keys were last used, gathered in memory and written now and then (never earlier times). */
  touchApiKeys(uses: readonly { keyId: string; at: number }[]): Promise<void>;
  /** Revokes every active `env` key of the kind whose hash is not in `keep`; answers their ids. */
  revokeEnvKeysExcept(
    kind: KeyKind,
    keep: readonly string[],
    at: number,
    reason: string,
  ): Promise<string[]>;
}
