/**
 * Key records (docs/security.md): one record, one lifecycle, for every kind of credential an
 * account holds: API keys, SMPP credentials and UCloud key pairs (KEY_KINDS). Each has an id, a
 * name, the account, when it was made and last used, an optional expiry and (API keys) scopes; a
 * revoked or expired one is refused at once on every node. The secret itself is held only as its
 * hash and shown once, at creation.
 */
import { invalid } from '../errors.js';

/**
 * What a restricted key may do (the way Stripe's restricted keys work): `send` messages, `read`
 * receipts, statistics and inbound messages, manage `templates` and signatures. A key with no
 * scope may do everything, including what no scope covers (webhooks, opt-outs, its keys).
 */
export const KEY_SCOPES = ['send', 'read', 'templates'] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

/**
 * Where a key came from: `env` keys are revoked when they leave the environment
 * (WIREBIRD_API_KEYS, WIREBIRD_SMPP_ESMES, WIREBIRD_UCLOUD_KEYS).
 */
export type KeySource = 'admin' | 'cli' | 'env' | 'dev' | 'rotation' | 'console';

/**
 * Every credential is a key record with one lifecycle (docs/security.md): an `api` key, an
 * `smpp` server credential (system_id and password) or a `ucloud` key pair. The record holds who
 * owns it, its scopes, expiry and revocation; the SMPP password's hash and the sealed UCloud
 * private key stay in their own tables, named by the record's keyHash (credentialHash).
 */
export const KEY_KINDS = ['api', 'smpp', 'ucloud'] as const;
export type KeyKind = (typeof KEY_KINDS)[number];

/** How messages name each kind of credential. */
export const KIND_NAMES: Record<KeyKind, string> = {
  api: 'API key',
  smpp: 'SMPP credential',
  ucloud: 'UCloud key pair',
};

/**
 * The keyHash of an SMPP credential's or a UCloud key pair's record: its kind and its public
 * name. An API key's keyHash is a hex SHA-256, which never holds a colon, so no presented API
 * key can match one of these.
 */
export const credentialHash = (kind: Exclude<KeyKind, 'api'>, name: string): string =>
  `${kind}:${name}`;

export interface KeyRecord {
  /** `key_` and 16 characters: what lists, logs and the audit name a key by. */
  keyId: string;
  kind: KeyKind;
  accountId: number;
  /** An API key's SHA-256; the credentialHash of the other kinds. */
  keyHash: string;
  name: string;
  /** The key's first characters, shown in lists so a person can tell keys apart. */
  prefix: string;
  /** Empty: every Action. */
  scopes: readonly KeyScope[];
  source: KeySource;
  createdAt: number;
  expiresAt: number | undefined;
  revokedAt: number | undefined;
  revokedReason: string;
  lastUsedAt: number | undefined;
}

export const KEY_NAME_MAX = 64;
/** `wb_` and four characters of the random part: enough to tell keys apart, nothing to guess with. */
export const KEY_PREFIX_LENGTH = 7;
/** How long a rotated key keeps working when no grace is given, and the longest grace. */
export const DEFAULT_ROTATION_GRACE_MS = 24 * 3600_000;
export const MAX_ROTATION_GRACE_MS = 30 * 24 * 3600_000;

export type KeyState = 'active' | 'revoked' | 'expired';

export function keyState(key: KeyRecord, now: number): KeyState {
  if (key.revokedAt !== undefined) return 'revoked';
  if (key.expiresAt !== undefined && key.expiresAt <= now) return 'expired';
  return 'active';
}

/** Whether a key may run an Action of `scope` (undefined: an Action only unrestricted keys run). */
export function keyAllows(key: Pick<KeyRecord, 'scopes'>, scope: KeyScope | undefined): boolean {
  if (key.scopes.length === 0) return true;
  return scope !== undefined && key.scopes.includes(scope);
}

export function checkKeyName(name: string, field = 'Name'): string {
  const trimmed = name.trim();
  const control = Array.from(trimmed).some((c) => c.charCodeAt(0) < 32 || c.charCodeAt(0) === 127);
  if (trimmed.length > KEY_NAME_MAX || control) {
    throw invalid(field, `must be at most ${KEY_NAME_MAX} characters without control characters`);
  }
  return trimmed;
}

export function checkScopes(values: readonly string[], field = 'Scopes'): KeyScope[] {
  const scopes = [...new Set(values)];
  for (const s of scopes) {
    if (!KEY_SCOPES.some((k) => k === s)) {
      throw invalid(field, `may hold ${KEY_SCOPES.join(', ')} (none: every Action); not ${s}`);
    }
  }
  // Each was checked above to be one of KEY_SCOPES.
  return scopes as KeyScope[];
}

/** An expiry given in Unix seconds: in the future, as ms. */
export function checkExpiry(seconds: number, now: number, field = 'ExpireTime'): number {
  const at = seconds * 1000;
  if (!Number.isSafeInteger(at) || at <= now) {
    throw invalid(field, 'must be a time in the future, in Unix seconds');
  }
  return at;
}

export function checkGrace(seconds: number, field = 'GraceSeconds'): number {
  const ms = seconds * 1000;
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > MAX_ROTATION_GRACE_MS) {
    throw invalid(field, `must be 0 to ${MAX_ROTATION_GRACE_MS / 1000} seconds (30 days)`);
  }
  return ms;
}
