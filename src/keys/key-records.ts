/**
 * Key records of every kind (docs/security.md): what an API key, an SMPP credential and a UCloud
 * key pair share, made and shown one way for the API, the SMPP server, the CLI and the console.
 */
import { randomBytes } from 'node:crypto';
import {
  keyState,
  type KeyRecord,
  type KeyKind,
  type KeySource,
  type KeyScope,
} from '../domain/keys/key-record.js';
import type { Store } from '../domain/ports.js';

/** What a credential of any kind is created with besides its secret (KeyTerms of the record). */
export interface KeyTerms {
  name?: string | undefined;
  scopes?: readonly KeyScope[] | undefined;
  expiresAt?: number | undefined;
  source: KeySource;
}

const newKeyId = () => `key_${randomBytes(12).toString('base64url')}`;

/** A new, active key record of any kind. */
export function newKeyRecord(
  o: KeyTerms & Pick<KeyRecord, 'kind' | 'accountId' | 'keyHash' | 'prefix'>,
  now: number,
): KeyRecord {
  return {
    keyId: newKeyId(),
    kind: o.kind,
    accountId: o.accountId,
    keyHash: o.keyHash,
    name: o.name ?? '',
    prefix: o.prefix,
    scopes: o.scopes ?? [],
    source: o.source,
    createdAt: now,
    expiresAt: o.expiresAt,
    revokedAt: undefined,
    revokedReason: '',
    lastUsedAt: undefined,
  };
}

/** The account's key records of one kind, by keyHash: the credentials' lifecycle beside them. */
export async function recordsOf(
  store: Pick<Store, 'listApiKeys'>,
  accountId: number | undefined,
  kind: KeyKind,
): Promise<Map<string, KeyRecord>> {
  const keys = await store.listApiKeys(accountId);
  return new Map(keys.filter((k) => k.kind === kind).map((k) => [k.keyHash, k]));
}

export const seconds = (ms: number | undefined) => (ms === undefined ? 0 : Math.floor(ms / 1000));

/** The lifecycle fields of a credential's view (an SMPP credential's, a UCloud pair's). */
export function recordFields(k: KeyRecord | undefined, now: number): Record<string, unknown> {
  return {
    KeyId: k?.keyId ?? '',
    Name: k?.name ?? '',
    Scopes: [...(k?.scopes ?? [])],
    State: k ? keyState(k, now) : 'revoked',
    ExpireTime: seconds(k?.expiresAt),
  };
}
