import { WirebirdError } from '../domain/errors.js';
import {
  DEFAULT_ROTATION_GRACE_MS,
  KEY_PREFIX_LENGTH,
  keyState,
  type KeyRecord,
  KIND_NAMES,
  type KeyScope,
  type KeySource,
} from '../domain/keys/key-record.js';
import type { Store } from '../domain/ports.js';
import { hashKey, newApiKey } from './auth.js';
import { newKeyRecord, seconds } from '../keys/key-records.js';

export { newKeyRecord, recordFields, recordsOf, type KeyTerms } from '../keys/key-records.js';

/**
 * The lifecycle of API keys, shared by the admin API, the keys Actions, the CLI, the console and
 * the first start (docs/security.md): create, rename, revoke, rotate. The key is answered once.
 */
export interface NewKey {
  accountId: number;
  name?: string;
  scopes?: readonly KeyScope[];
  expiresAt?: number;
  source: KeySource;
  /** A key chosen elsewhere (WIREBIRD_API_KEYS, the dev key); else a new random one. */
  key?: string;
}

export async function createApiKey(
  store: Store,
  o: NewKey,
  now: number,
): Promise<{ key: string; record: KeyRecord }> {
  const key = o.key ?? newApiKey();
  const record = newKeyRecord(
    { ...o, kind: 'api', keyHash: hashKey(key), prefix: key.slice(0, KEY_PREFIX_LENGTH) },
    now,
  );
  await store.ensureAccount(o.accountId, now);
  await store.insertApiKey(record);
  return { key, record };
}

async function ownKey(store: Store, accountId: number, keyId: string): Promise<KeyRecord> {
  const key = (await store.listApiKeys(accountId)).find((k) => k.keyId === keyId);
  if (!key) throw new WirebirdError('NotFound', `no key ${keyId} in AccountId ${accountId}`);
  return key;
}

export async function renameApiKey(
  store: Store,
  at: { accountId: number; keyId: string },
  name: string,
): Promise<KeyRecord> {
  await ownKey(store, at.accountId, at.keyId);
  // ownKey just found the key in this account, so the update finds it too.
  return (await store.updateApiKey(at.accountId, at.keyId, { name })) as KeyRecord;
}

/** Revokes a key at once; revoking one already revoked keeps its first time and reason. */
export async function revokeApiKey(
  store: Store,
  at: { accountId: number; keyId: string },
  now: number,
  reason: string,
): Promise<KeyRecord> {
  await ownKey(store, at.accountId, at.keyId);
  const change = { revokedAt: now, revokedReason: reason || 'revoked' };
  // ownKey just found the key in this account, so the update finds it too.
  return (await store.updateApiKey(at.accountId, at.keyId, change)) as KeyRecord;
}

/**
 * A new key with the old one's name and scopes; the old one keeps working for `graceMs` (24 h
 * unless given; 0 ends it now), so clients can move over without a gap.
 */
export async function rotateApiKey(
  store: Store,
  at: { accountId: number; keyId: string },
  now: number,
  graceMs = DEFAULT_ROTATION_GRACE_MS,
): Promise<{ key: string; record: KeyRecord; previous: KeyRecord }> {
  const old = await ownKey(store, at.accountId, at.keyId);
  if (old.kind !== 'api') {
    // An SMPP password or a UCloud private key is swapped by making a second credential: the
    // client moves to it, then the first is revoked (docs/security.md).
    throw new WirebirdError(
      'StateConflict',
      `${KIND_NAMES[old.kind]} ${old.keyId} is not rotated: create another, move its clients to it, then revoke this one`,
    );
  }
  if (keyState(old, now) !== 'active') {
    throw new WirebirdError(
      'StateConflict',
      `key ${old.keyId} is ${keyState(old, now)}; create a new one instead`,
    );
  }
  const made = await createApiKey(
    store,
    { accountId: old.accountId, name: old.name, scopes: old.scopes, source: 'rotation' },
    now,
  );
  const until = Math.min(old.expiresAt ?? Infinity, now + graceMs);
  // ownKey found the key above, so the update finds it too.
  const previous = (await store.updateApiKey(at.accountId, at.keyId, {
    expiresAt: until,
  })) as KeyRecord;
  return { ...made, previous };
}

/** A key as the API shows it: never the key, nor its hash. Times in Unix seconds, 0 for none. */
export function apiKeyView(k: KeyRecord, now: number): Record<string, unknown> {
  return {
    KeyId: k.keyId,
    Kind: k.kind,
    AccountId: k.accountId,
    Name: k.name,
    Prefix: k.prefix,
    Scopes: [...k.scopes],
    Source: k.source,
    State: keyState(k, now),
    CreateTime: seconds(k.createdAt),
    ExpireTime: seconds(k.expiresAt),
    RevokeTime: seconds(k.revokedAt),
    RevokeReason: k.revokedReason,
    LastUseTime: seconds(k.lastUsedAt),
  };
}

/**
 * When each key was last used, gathered in memory and written every `everyMs` (and at close):
 * one write per key per interval, not one per request. A crash loses at most one interval.
 */
export class KeyUsage {
  private pending = new Map<string, number>();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly store: Pick<Store, 'touchApiKeys'>,
    everyMs = 30_000,
  ) {
    this.timer = setInterval(() => void this.flush().catch(() => undefined), everyMs);
    this.timer.unref();
  }

  note(keyId: string, at: number): void {
    this.pending.set(keyId, at);
  }

  async flush(): Promise<void> {
    if (this.pending.size === 0) return;
    const uses = [...this.pending].map(([keyId, at]) => ({ keyId, at }));
    this.pending = new Map();
    await this.store.touchApiKeys(uses);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }
}
