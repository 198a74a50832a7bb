/**
 * The one place that talks to libphonenumber-js. The max metadata is used because it checks
 * each country's digit patterns; the default metadata checks little more than length.
 */
import {
  parsePhoneNumberFromString,
  validatePhoneNumberLength,
  type CountryCode,
} from 'libphonenumber-js/max';
import metadata from 'libphonenumber-js/max/metadata';
import { isMobilePhone, isValidPhone } from './mobile-check.js';
import { accepted, notMobileIn, Reason, refused, type PhoneResult } from './phone-result.js';

// ITU-T E.164: a country code plus subscriber number is at most 15 digits.
const MAX_E164_DIGITS = 15;

const callingCodes: ReadonlySet<string> = new Set([
  ...Object.keys(metadata.country_calling_codes),
  ...Object.keys(metadata.nonGeographic),
]);

/** True when `code` is a whole country calling code (86, 1, 800), not merely a prefix of one. */
export function isCallingCode(code: string): boolean {
  return callingCodes.has(code);
}

/**
 * Reads `text` as one phone number with libphonenumber's parser and accepts it only if the
 * metadata calls it valid. `region` applies to national numbers; text starting with '+' carries
 * its own country code.
 */
export function parsePhone(text: string, region: CountryCode | undefined): PhoneResult {
  // extract: false so that a number buried in other text is not fished out of it.
  const phone = parsePhoneNumberFromString(text, { defaultCountry: region, extract: false });
  if (!phone || !isValidPhone(phone)) return refused(reasonForInvalid(text, region));
  if (phone.number.length - 1 > MAX_E164_DIGITS) return refused(Reason.TooLong);
  return accepted(phone.number, phone.country);
}

/**
 * Reads `text` as a national number of `region` and accepts it only if it is a mobile number
 * there (or a number the region does not tell apart from one, as the US does not): a number
 * written without its country code is a guess at the country, and a landline of the guessed one
 * is far more often a foreign mobile whose '+' was forgotten than a number meant to get an SMS.
 */
export function readNationalMobile(text: string, region: CountryCode): PhoneResult {
  const phone = parsePhoneNumberFromString(text, { defaultCountry: region, extract: false });
  if (!phone || !isValidPhone(phone)) return refused(reasonForInvalid(text, region));
  if (phone.number.length - 1 > MAX_E164_DIGITS) return refused(Reason.TooLong);
  if (!isMobilePhone(phone)) return refused(notMobileIn(region));
  return accepted(phone.number, phone.country);
}

/**
 * The E.164 number `text` names as a national number of `region`, if it is valid and the region
 * itself writes it with `(areaCode)` in front, as the US writes (415) 555-2671.
 */
export function readAsBracketedAreaCode(
  text: string,
  region: CountryCode,
  areaCode: string,
): string | undefined {
  const phone = parsePhoneNumberFromString(text, { defaultCountry: region, extract: false });
  if (phone?.isValid() !== true) return undefined;
  return phone.formatNational().startsWith(`(${areaCode})`) ? phone.number : undefined;
}

// Runs only for refused numbers, so its second pass over the text costs nothing on the hot path.
function reasonForInvalid(text: string, region: CountryCode | undefined): string {
  switch (validatePhoneNumberLength(text, { defaultCountry: region })) {
    case 'INVALID_COUNTRY':
      return text.trimStart().startsWith('+') ? Reason.UnknownCountryCode : Reason.NoCountryCode;
    case 'TOO_SHORT':
      return Reason.TooShort;
    case 'TOO_LONG':
      return Reason.TooLong;
    default:
      return Reason.Invalid;
  }
}
