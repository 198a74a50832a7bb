import type { Issuer } from './message.js';

/**
 * SMSCs answer submit_sm with a message id in one base and may quote it in delivery receipts in
 * another (hex in the answer, decimal in the receipt, or the reverse), with or without zero
 * padding. Ids are matched on their readings: the id as given first, then the same number in the
 * other base. Ids that are not plain hex or decimal (the simulator's, WhatsApp's) have one reading.
 */
const DECIMAL = /^[0-9]+$/;
const HEX = /^[0-9a-f]+$/;
/** Longer digit strings are opaque tokens, not numbers an SMSC would re-base. */
const MAX_NUMERIC_LENGTH = 32;

/** The canonical form of an SMSC message id: trimmed, lower case, no leading zeros. */
export function normaliseSmscId(raw: string): string {
  const id = raw.trim().toLowerCase();
  const stripped = id.replace(/^0+/, '');
  return stripped === '' && id !== '' ? '0' : stripped;
}

/** Every reading of a (normalised) id, the id itself first. */
export function upstreamIdReadings(id: string): string[] {
  if (id.length === 0 || id.length > MAX_NUMERIC_LENGTH || !HEX.test(id)) return [id];
  const readings = [id];
  if (DECIMAL.test(id)) readings.push(BigInt(id).toString(16));
  readings.push(BigInt(`0x${id}`).toString(10));
  return [...new Set(readings)];
}

/**
 * One string for an upstream id and its issuer (the route and, within it, the upstream), for
 * maps in memory: ids are unique only within their issuer.
 */
export function issuedKey(issuer: Issuer, upstreamId: string): string {
  return `${issuer.route}\u0000${issuer.upstream}\u0000${upstreamId}`;
}
