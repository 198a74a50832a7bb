/**
 * Recipient phone numbers: parsed as API callers write them and normalised to E.164, the one
 * form the rest of Wirebird stores, deduplicates and hands to channels.
 *
 * The one entry (callers import this module only), read in one direction: the plain-E.164 fast
 * path (plain-e164.ts), else the cache, else the checks below and libphonenumber's parser
 * (phone-reading.ts), which asks mobile-check.ts, which reads numbering-plan.ts. No module of
 * domain/phones/ calls back up this chain.
 */
import { getCountryCallingCode, isSupportedCountry, type CountryCode } from 'libphonenumber-js/max';
import { invalid } from '../errors.js';
import { BoundedCache } from './bounded-cache.js';
import {
  isCallingCode,
  parsePhone,
  readAsBracketedAreaCode,
  readNationalMobile,
} from './phone-reading.js';
import { Reason, refused, type PhoneResult } from './phone-result.js';
import { readPlainE164 } from './plain-e164.js';

export type { PhoneResult } from './phone-result.js';

const MAX_INPUT_CHARS = 32;
// '011' (the longest common international prefix) plus a 15-digit E.164 number.
const MAX_INPUT_DIGITS = 18;
// libphonenumber costs ~13µs a parse and batches repeat numbers a lot. 50,000 short entries is
// a few MB at most.
const CACHE_ENTRIES = 50_000;

// The cheap pre-check: digits and separators only, '+' only in front. Anything else is refused
// before libphonenumber (which would happily fish a number out of surrounding text) sees it.
const ALLOWED_CHARACTERS = /^ *\+?[\d ().-]*$/;
const LEADING_PLUS = /^ *\+/;
const LEADING_00 = /^ *00/;
const BRACKETED_CODE = /^ *\((\d{1,3})\)(.*)$/;
const NON_DIGITS = /\D/g;
const REGION_SHAPE = /^[A-Z]{2}$/;

const cache = new BoundedCache<PhoneResult>(CACHE_ENTRIES);

/** Parses a phone number as an API caller writes it and normalises it to E.164. */
export function normalizePhone(raw: string, defaultRegion: string): PhoneResult {
  // The type says string, but the value comes from a JSON body.
  if (typeof raw !== 'string') return refused(Reason.NotAString);
  if (raw.length > MAX_INPUT_CHARS) return refused(Reason.TooLong);
  // Cheaper than the cache's key, lookup and eviction: plain E.164 is read afresh every time.
  const plain = readPlainE164(raw);
  if (plain !== undefined) return plain;
  const region = knownRegion(defaultRegion);
  // Known regions are exactly two characters, so a fixed-width prefix keeps keys distinct.
  const key = (region ?? '--') + raw;
  let result = cache.get(key);
  if (result === undefined) {
    // Frozen because every caller of a repeated number shares this one object.
    result = Object.freeze(interpret(raw, region));
    cache.set(key, result);
  }
  return result;
}

/** The number in E.164, or a refusal naming `field` with the reason (InvalidParameter). */
export function e164Of(raw: string, region: string, field: string): string {
  const phone = normalizePhone(raw, region);
  if (!phone.ok) throw invalid(field, phone.reason);
  return phone.e164;
}

/** E.164 without the '+', as SMPP wants it (TON 1 / NPI 1). */
export function smppDigits(e164: string): string {
  if (!/^\+\d{1,15}$/.test(e164)) throw new RangeError(`not an E.164 number: ${e164}`);
  return e164.slice(1);
}

/** True for a two-letter region libphonenumber knows (for validating the configured default region). */
export function isKnownRegion(region: string): boolean {
  return knownRegion(region) !== undefined;
}

function knownRegion(region: string): CountryCode | undefined {
  return typeof region === 'string' && REGION_SHAPE.test(region) && isSupportedCountry(region)
    ? region
    : undefined;
}

function interpret(raw: string, region: CountryCode | undefined): PhoneResult {
  if (raw.trim() === '') return refused(Reason.Empty);
  if (!ALLOWED_CHARACTERS.test(raw)) return refused(Reason.BadCharacters);
  if (raw.replace(NON_DIGITS, '').length > MAX_INPUT_DIGITS) return refused(Reason.TooLong);
  if (LEADING_PLUS.test(raw)) return readInternational(raw.trim());
  // '00' is the international prefix nearly everywhere, but libphonenumber only honours it
  // where it is the default region's own (CN, not US).
  if (LEADING_00.test(raw)) return readInternational(raw.replace(LEADING_00, '+'));
  const bracketed = BRACKETED_CODE.exec(raw);
  if (bracketed?.[1] !== undefined) {
    return readBracketed(bracketed[1], bracketed[2] ?? '', raw, region);
  }
  return readNational(raw, region);
}

/**
 * `(86)13812345678` is how UCloud-style callers give a country code, but `(415) 555-2671` is how
 * the US writes an area code, and some codes are both (352 is Luxembourg and Florida). Both
 * readings are tried. When both give valid, different numbers and the default region itself
 * writes the number with that bracketed area code, guessing would send the SMS to the wrong
 * country, so the number is refused with a hint to use '+'.
 */
function readBracketed(
  code: string,
  rest: string,
  raw: string,
  region: CountryCode | undefined,
): PhoneResult {
  if (!isCallingCode(code)) return readNational(raw, region);
  const asCode = readInternational(`+${code}${rest}`);
  if (!asCode.ok) {
    const asNational = readNational(raw, region);
    return asNational.ok ? asNational : asCode;
  }
  // With the region's own code, the national reading strips it again: no second parse needed.
  if (region === undefined || getCountryCallingCode(region) === code) return asCode;
  const asAreaCode = readAsBracketedAreaCode(raw, region, code);
  return asAreaCode !== undefined && asAreaCode !== asCode.e164
    ? refused(Reason.Ambiguous)
    : asCode;
}

/** Text with its own country code: a plain E.164 form is read without the parser. */
function readInternational(text: string): PhoneResult {
  return readPlainE164(text) ?? parsePhone(text, undefined);
}

function readNational(raw: string, region: CountryCode | undefined): PhoneResult {
  return region === undefined ? refused(Reason.NoCountryCode) : readNationalMobile(raw, region);
}
