/**
 * The number most API callers send, read without libphonenumber's parser: '+', then digits only,
 * nothing the parser would strip as a national prefix, and a mobile or fixed-line number of the
 * region the parser would assign it to. The parser costs several µs and a dozen objects per
 * number; this is a few regular expressions. Every other text gets undefined here and the
 * parser's reading; plain-e164.test.ts checks that where this answers, it answers as the parser.
 */
import type { CountryCode } from 'libphonenumber-js/max';
import json from 'libphonenumber-js/max/metadata';
import { isMobileOrFixedLine } from './mobile-check.js';
import { numberingPlanOf } from './numbering-plan.js';
import { accepted, type PhoneResult } from './phone-result.js';

// E.164: a country code (no leading 0) and at most 15 digits in all.
const PLAIN_E164 = /^\+[1-9]\d{1,14}$/;
const MAX_CALLING_CODE_DIGITS = 3;

/** How libphonenumber reads the numbers of one calling code. */
interface CallingPlan {
  /** The calling code's main region: its plan reads the number, and it is tried first. */
  country: CountryCode;
  /** What the parser would try to strip from the front of the national number. */
  nationalPrefix: RegExp | undefined;
  /** Where regions share the code: the leading digits that make a number the main region's. */
  leadingDigits: RegExp | undefined;
}

const plans = new Map<string, CallingPlan>();

const atStart = (pattern: string | undefined) =>
  pattern ? new RegExp(`^(?:${pattern})`) : undefined;

/**
 * A code of one region names that region. A code several regions share (+1, +7, +44) names the
 * first region, in the metadata's order, whose number it is: the main region when its leading
 * digits match or, where it has none, when the number is of one of its types.
 */
function callingPlanOf(code: string): CallingPlan | null | undefined {
  let plan = plans.get(code);
  if (plan !== undefined) return plan;
  const countries = json.country_calling_codes[code];
  // null: a code of no region (+800), left to the parser. Nothing else is kept for a code that
  // is none: the key space of arbitrary digits is unbounded.
  if (countries === undefined) return code in json.nonGeographic ? null : undefined;
  // The metadata lists at least one country for every calling code it has.
  const country = countries[0] as CountryCode;
  const numbering = numberingPlanOf(country);
  plan = {
    country,
    nationalPrefix: atStart(numbering?.nationalPrefixForParsing?.()),
    leadingDigits: countries.length > 1 ? atStart(numbering?.leadingDigits?.()) : undefined,
  };
  plans.set(code, plan);
  return plan;
}

/** The reading of a plain E.164 text, or undefined where libphonenumber's parser must decide. */
export function readPlainE164(text: string): PhoneResult | undefined {
  if (!PLAIN_E164.test(text)) return undefined;
  // Calling codes are prefix-free: the first prefix that is one is the code.
  for (let digits = 1; digits <= MAX_CALLING_CODE_DIGITS; digits++) {
    const plan = callingPlanOf(text.slice(1, 1 + digits));
    if (plan === undefined) continue;
    if (plan === null) return undefined;
    const national = text.slice(1 + digits);
    // A prefix pattern may match nothing (AR's is all optional): then nothing would be stripped.
    if (plan.nationalPrefix?.exec(national)?.[0]) return undefined;
    if (plan.leadingDigits && !plan.leadingDigits.test(national)) return undefined;
    return isMobileOrFixedLine(plan.country, national) ? accepted(text, plan.country) : undefined;
  }
  return undefined;
}
