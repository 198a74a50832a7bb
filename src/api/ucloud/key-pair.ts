import { randomBytes } from 'node:crypto';
import { WirebirdError } from '../../domain/errors.js';
import type { Store } from '../../domain/ports.js';
import type { SecretBox } from '../../crypto/secret-box.js';

/** A new key pair: the public key names it, the private key (32 random bytes) signs with it. */
export function newKeyPair(): { publicKey: string; privateKey: string } {
  return {
    publicKey: `wbpk_${randomBytes(18).toString('base64url')}`,
    privateKey: randomBytes(32).toString('base64url'),
  };
}

/** Creates and stores a key pair for the account; the private key is returned this once only. */
export async function createKeyPair(
  store: Store,
  box: SecretBox,
  accountId: number,
  now: number,
): Promise<{ publicKey: string; privateKey: string }> {
  const pair = newKeyPair();
  await store.ensureAccount(accountId, now);
  await store.addUcloudKey({
    publicKey: pair.publicKey,
    accountId,
    sealedPrivateKey: box.seal(pair.privateKey),
    createdAt: now,
  });
  return pair;
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
