import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { WirebirdError } from '../domain/errors.js';
import {
  KIND_NAMES,
  keyAllows,
  keyState,
  type KeyRecord,
  type KeyScope,
} from '../domain/keys/key-record.js';
import type { ApiKeyStore, Clock } from '../domain/ports.js';
import type { KeyUsage } from './api-keys.js';

/** API keys are 32 random bytes, so a fast hash suffices: there is nothing to brute-force. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function newApiKey(): string {
  return `wb_${randomBytes(32).toString('base64url')}`;
}

export function bearerToken(header: string | undefined): string | undefined {
  const m = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1];
}

/** Who a request's key speaks for: the account, and the key (its id and scopes). */
export interface KeyHolder {
  accountId: number;
  key: KeyRecord;
}

/**
 * The account a request's key belongs to; throws Unauthenticated otherwise, saying when the key
 * was revoked or expired. Read from the store on every request, so a revoked key is refused at
 * once on every node sharing it (docs/security.md).
 */
export async function authenticate(
  deps: { store: Pick<ApiKeyStore, 'apiKeyByHash'>; clock: Clock; keyUsage?: KeyUsage },
  authorization: string | undefined,
): Promise<KeyHolder> {
  const key = bearerToken(authorization);
  if (!key) {
    throw new WirebirdError('Unauthenticated', 'Authorization: Bearer <API key> is required');
  }
  const record = await deps.store.apiKeyByHash(hashKey(key));
  // A hex hash never matches another kind's record; the kind is checked all the same.
  if (record?.kind !== 'api') throw new WirebirdError('Unauthenticated', unknownKeyMessage(key));
  return activeHolder(deps, record);
}

/**
 * The holder of a key record of any kind, when it is active (noting its use); throws
 * Unauthenticated saying when it was revoked or expired otherwise.
 */
export function activeHolder(
  deps: { clock: Clock; keyUsage?: KeyUsage | undefined },
  record: KeyRecord,
): KeyHolder {
  const now = deps.clock.now();
  const state = keyState(record, now);
  if (state !== 'active')
    throw new WirebirdError('Unauthenticated', endedKeyMessage(record, state));
  deps.keyUsage?.note(record.keyId, now);
  return { accountId: record.accountId, key: record };
}

/** The account of a key that may do `scope` (a route outside /api: the media files). */
export async function authorised(
  deps: Parameters<typeof authenticate>[0],
  authorization: string | undefined,
  scope: KeyScope,
): Promise<number> {
  const holder = await authenticate(deps, authorization);
  if (!keyAllows(holder.key, scope)) {
    throw new WirebirdError(
      'OutOfScope',
      `the API key ${holder.key.keyId} may only ${holder.key.scopes.join(', ')}; this route needs the ${scope} scope`,
    );
  }
  return holder.accountId;
}

function endedKeyMessage(k: KeyRecord, state: 'revoked' | 'expired'): string {
  const when = (ms: number | undefined) => new Date(ms ?? 0).toISOString();
  const which = `the ${KIND_NAMES[k.kind]} ${k.keyId}`;
  return state === 'revoked'
    ? `${which} was revoked at ${when(k.revokedAt)} (${k.revokedReason}); use another key of the account`
    : `${which} expired at ${when(k.expiresAt)}; use another key of the account`;
}

/** What a person most often sent instead of an API key, and what to send. */
function unknownKeyMessage(key: string): string {
  if (/^\d+:wb_/.test(key)) {
    return 'the API key is not valid: that is the whole line of dev-account.key; send only the key after the colon (cut -d: -f2 data/dev-account.key)';
  }
  if (key.startsWith('wba_')) {
    return "the API key is not valid: that is the admin key, which /admin takes; /api takes an account's API key (data/dev-account.key, or POST /admin/accounts/{AccountId}/keys)";
  }
  return 'the API key is not valid';
}

/** Constant-time comparison of the admin key, through hashes of equal length. */
export function isAdminKey(
  adminKey: string | undefined,
  authorization: string | undefined,
): boolean {
  const key = bearerToken(authorization);
  if (!adminKey || !key) return false;
  return timingSafeEqual(Buffer.from(hashKey(adminKey), 'hex'), Buffer.from(hashKey(key), 'hex'));
}
