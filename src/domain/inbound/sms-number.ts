import { invalid } from '../errors.js';
import { normalizePhone } from '../phones/phones.js';

const SHORT_CODE = /^\d{3,8}$/;

/**
 * The number an SMS reply comes to, as an account registers it and as the network names it: a
 * short code (3 to 8 digits, kept as written) or a long number (normalised to E.164, national
 * forms read in `region`). Refused naming `field` otherwise.
 */
export function smsNumberOf(raw: string, region: string, field: string): string {
  const trimmed = raw.trim();
  if (SHORT_CODE.test(trimmed)) return trimmed;
  const phone = normalizePhone(trimmed, region);
  if (!phone.ok) {
    throw invalid(
      field,
      `must be a short code of 3 to 8 digits or a phone number: it ${phone.reason}`,
    );
  }
  return phone.e164;
}
