import { randomBytes } from 'node:crypto';
import { WirebirdError } from '../domain/errors.js';
import type { Store } from '../domain/ports.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { credentialHash, type KeyRecord } from '../domain/keys/key-record.js';
import { newKeyRecord, type KeyTerms } from './api-keys.js';

/** A new key pair: the public key names it, the private key (32 random bytes) signs with it. */
export function newKeyPair(): { publicKey: string; privateKey: string } {
  return {
    publicKey: `wbpk_${randomBytes(18).toString('base64url')}`,
    privateKey: randomBytes(32).toString('base64url'),
  };
}

/** What a key pair is made of: new unless the environment names it (WIREBIRD_UCLOUD_KEYS). */
export interface NewKeyPair {
  accountId: number;
  terms: KeyTerms;
  pair?: { publicKey: string; privateKey: string };
}

/**
 * Creates and stores a key pair for the account with its key record (its name, scopes and
 * expiry, revoked through the keys routes); the private key is returned this once only.
 */
export async function createKeyPair(
  store: Store,
  box: SecretBox,
  o: NewKeyPair,
  now: number,
): Promise<{ publicKey: string; privateKey: string; record: KeyRecord }> {
  const pair = o.pair ?? newKeyPair();
  const { accountId, terms } = o;
  const record = newKeyRecord(
    {
      ...terms,
      kind: 'ucloud',
      accountId,
      keyHash: credentialHash('ucloud', pair.publicKey),
      prefix: pair.publicKey,
    },
    now,
  );
  await store.ensureAccount(accountId, now);
  const sealedPrivateKey = box.seal(pair.privateKey);
  await store.addUcloudKey(
    { publicKey: pair.publicKey, accountId, sealedPrivateKey, createdAt: now },
    record,
  );
  return { ...pair, record };
}

/** Removes one of the account's key pairs; requests signed with it are refused from then on. */
export async function deleteKeyPair(store: Store, accountId: number, publicKey: string) {
  if (!(await store.deleteUcloudKey(accountId, publicKey))) {
    throw new WirebirdError(
      'NotFound',
      `PublicKey ${publicKey} is not a key pair of AccountId ${accountId}`,
    );
  }
}
