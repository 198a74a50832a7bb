import { createHash, timingSafeEqual } from 'node:crypto';
import { signingText } from '../../domain/ucloud/flattened.js';

/** The UCloud API signature: hex SHA-1 of signingText (docs/ucloud-sdk.md). */
export function ucloudSignature(
  params: Readonly<Record<string, string>>,
  privateKey: string,
): string {
  return createHash('sha1').update(signingText(params, privateKey), 'utf8').digest('hex');
}

/** Compared in constant time, so that the answer's timing tells nothing of the right signature. */
export function signatureMatches(
  params: Readonly<Record<string, string>>,
  privateKey: string,
  given: string,
): boolean {
  const expected = Buffer.from(ucloudSignature(params, privateKey), 'utf8');
  const actual = Buffer.from(given.toLowerCase(), 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
