import { WirebirdError, missing } from '../../domain/errors.js';
import type { ApiKeyStore, Clock, UcloudKeyStore } from '../../domain/ports.js';
import { credentialHash } from '../../domain/keys/key-record.js';
import { activeHolder, type KeyHolder } from '../../core/auth.js';
import type { KeyUsage } from '../../core/api-keys.js';
import { SIGNATURE_PARAM, flatten, unflatten } from '../../domain/ucloud/flattened.js';
import { FormParams } from './form-body.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { signatureMatches } from './signature.js';
import { readingOf } from './reading.js';
import { fieldsOf } from '../../util/unknown-values.js';

/**
 * The UCloud dialect (docs/ucloud-sdk.md): a form-encoded body, or any body signed with a
 * PublicKey. It is read into the body the JSON API takes, so the same Actions answer it.
 */
export interface UcloudCall {
  /** The flat parameters, as signed. */
  params: Readonly<Record<string, string>>;
  /** The nested body the Actions read, without the credential's parameters. */
  body: Record<string, unknown>;
}

export const PUBLIC_KEY_PARAM = 'PublicKey';

/** Where the dialect is read: the SDKs post to their base_url, the host's root or /api. */
export const UCLOUD_PATHS: readonly string[] = ['/api', '/'];

/** A quick look, before any reading: a form body, or a JSON object that carries a PublicKey. */
export function isUcloudBody(parsed: unknown): boolean {
  if (parsed instanceof FormParams) return true;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
  return fieldsOf(parsed)[PUBLIC_KEY_PARAM] !== undefined;
}

/** The call, when the body is in the dialect; undefined for a plain JSON body. */
export function ucloudCallOf(parsed: unknown): UcloudCall | undefined {
  if (parsed instanceof FormParams) return callOf(parsed.params, unflatten(parsed.params));
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  // Checked just above to be a non-array object: a field bag.
  const body = parsed as Record<string, unknown>;
  if (body[PUBLIC_KEY_PARAM] === undefined) return undefined;
  return callOf(flatten(body), body);
}

function callOf(params: Readonly<Record<string, string>>, nested: Record<string, unknown>) {
  const { [PUBLIC_KEY_PARAM]: _key, [SIGNATURE_PARAM]: _signature, ...body } = nested;
  return { params, body: readingOf(body) };
}

/** True when the call carries a PublicKey: it is then authenticated by its signature alone. */
export function isSigned(call: UcloudCall): boolean {
  return call.params[PUBLIC_KEY_PARAM] !== undefined;
}

/**
 * The key pair that signed the call, as the holder of its key record: its account, scopes and
 * state (a revoked or expired pair is refused like a revoked API key, RetCode 170). Each way of
 * failing has its own RetCode, and the Message names what is wrong, never the expected signature.
 */
export async function signedBy(
  call: UcloudCall,
  deps: {
    store: UcloudKeyStore & Pick<ApiKeyStore, 'apiKeyByHash'>;
    box: SecretBox;
    clock: Clock;
    keyUsage?: KeyUsage | undefined;
  },
): Promise<KeyHolder> {
  const publicKey = call.params[PUBLIC_KEY_PARAM];
  const signature = call.params[SIGNATURE_PARAM];
  if (publicKey === undefined || publicKey === '') throw missing(PUBLIC_KEY_PARAM);
  if (signature === undefined || signature === '') throw missing(SIGNATURE_PARAM);
  const key = await deps.store.getUcloudKey(publicKey);
  if (!key) {
    throw new WirebirdError(
      'UnknownPublicKey',
      'PublicKey is not a key pair of this gateway; create one with `wirebird keys ucloud create`',
    );
  }
  const privateKey = deps.box.open(key.sealedPrivateKey);
  if (privateKey === undefined) {
    // The stored key was sealed under another gateway secret: an operator's fault, not the caller's.
    throw new Error(`the private key of ${publicKey} cannot be opened with this gateway's secret`);
  }
  if (!signatureMatches(call.params, privateKey, signature)) {
    throw new WirebirdError(
      'SignatureMismatch',
      'Signature does not match: it must be the hex SHA-1 of every other parameter sorted by name, each name followed by its value, then the private key',
    );
  }
  const record = await deps.store.apiKeyByHash(credentialHash('ucloud', publicKey));
  if (record?.kind !== 'ucloud' || record.accountId !== key.accountId) {
    throw new Error(`the UCloud key pair ${publicKey} has no key record`);
  }
  return activeHolder(deps, record);
}
