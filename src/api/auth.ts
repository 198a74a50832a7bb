import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { WirebirdError } from '../domain/errors.js';
import type { AccountStore } from '../domain/ports.js';

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

/** The account a request's key belongs to; throws Unauthenticated otherwise. */
export async function authenticate(
  store: AccountStore,
  authorization: string | undefined,
): Promise<number> {
  const key = bearerToken(authorization);
  if (!key) {
    throw new WirebirdError('Unauthenticated', 'Authorization: Bearer <API key> is required');
  }
  const accountId = await store.accountForKeyHash(hashKey(key));
  if (accountId === undefined) throw new WirebirdError('Unauthenticated', unknownKeyMessage(key));
  return accountId;
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
