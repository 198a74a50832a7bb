/**
 * The number most API callers send, read without libphonenumber's parser: '+', then digits only,
 * no national prefix to strip, and a mobile or fixed-line number of the calling code's main
 * region. The parser costs several µs and a dozen objects per number;
 * this is a few regular expressions. Every other text gets undefined here and the parser's
 * reading; plain-e164.test.ts checks that where this answers, it answers as the parser does.
 */
import { Metadata, type CountryCode } from 'libphonenumber-js/max';
import json from 'libphonenumber-js/max/metadata';
import { isMobileOrFixedLine } from './mobile-check.js';
import { accepted, type PhoneResult } from './phone-result.js';

// E.164: a country code (no leading 0) and at most 15 digits in all.
const PLAIN_E164 = /^\+[1-9]\d{1,14}$/;
const MAX_CALLING_CODE_DIGITS = 3;

/** The numbering plan libphonenumber reads a calling code's numbers with. */
interface CallingPlan {
  /** The calling code's main region: the one its numbers are read by, and the first tried. */
  country: CountryCode;
  /** What libphonenumber would try to strip from the front of the national number. */
  nationalPrefix: RegExp | undefined;
}

/** The parts of libphonenumber's numbering plan used here; not in its type declarations. */
interface PlanInternals {
  nationalPrefixForParsing?: () => string | undefined;
  leadingDigits?: () => string | undefined;
}

const metadata = new Metadata();
const plans = new Map<string, CallingPlan | null>();

/**
 * A code several regions share (+1, +44) names the first region whose number it is, trying them
 * in the metadata's order; a valid number of the main region is therefore the main region's,
 * unless the main region claims only numbers with certain leading digits (then: null).
 */
function callingPlanOf(code: string): CallingPlan | null | undefined {
  let plan = plans.get(code);
  if (plan !== undefined) return plan;
  const countries = json.country_calling_codes[code];
  // Unknown codes are not cached: the key space of arbitrary digits is unbounded.
  if (countries === undefined) return json.nonGeographic?.[code] ? null : undefined;
  const country = countries[0] as CountryCode;
  metadata.selectNumberingPlan(country);
  const numbering = metadata.numberingPlan as PlanInternals | undefined;
  const prefix = numbering?.nationalPrefixForParsing?.();
  plan =
    countries.length > 1 && numbering?.leadingDigits?.()
      ? null
      : { country, nationalPrefix: prefix ? new RegExp(`^(?:${prefix})`) : undefined };
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
    if (plan.nationalPrefix?.test(national)) return undefined;
    return isMobileOrFixedLine(plan.country, national) ? accepted(text, plan.country) : undefined;
  }
  return undefined;
}
