/**
 * A cheaper path to libphonenumber's verdict for the numbers an SMS gateway sees most: mobiles.
 * `isValid()` tries the number against each of its country's number types in turn, building a
 * fresh RegExp from the metadata for every test; most of acceptance's CPU went there. A number
 * that matches its country's general pattern and the mobile or fixed-line type (pattern and
 * lengths) is one `isValid()` accepts, so that is checked first, with patterns compiled once per
 * country. Anything else, and metadata this code does not recognise, gets `isValid()` itself.
 */
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import { numberingPlanOf, type NumberingPlan } from './numbering-plan.js';

interface NumberType {
  pattern: RegExp;
  lengths: readonly number[] | undefined;
}

interface MobilePlan {
  general: RegExp;
  /** The mobile type alone, when the metadata has one. */
  mobile: NumberType | undefined;
  /** Mobile, then fixed line: where a region writes mobiles as fixed-line numbers (US), the latter. */
  types: readonly NumberType[];
}

const CHEAP_TYPES = ['MOBILE', 'FIXED_LINE'];

const plans = new Map<CountryCode, MobilePlan | null>();

function whole(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`);
}

function numberTypeOf(numbering: NumberingPlan | undefined, name: string): NumberType | undefined {
  const type = numbering?.type?.(name);
  const pattern = type?.pattern();
  return pattern ? { pattern: whole(pattern), lengths: type?.possibleLengths() } : undefined;
}

function mobilePlanOf(country: CountryCode): MobilePlan | null {
  let plan = plans.get(country);
  if (plan !== undefined) return plan;
  const numbering = numberingPlanOf(country);
  const general = numbering?.nationalNumberPattern?.();
  const [mobile, fixedLine] = CHEAP_TYPES.map((name) => numberTypeOf(numbering, name));
  const types = [mobile, fixedLine].filter((t) => t !== undefined);
  plan = general && types.length > 0 ? { general: whole(general), mobile, types } : null;
  plans.set(country, plan);
  return plan;
}

function isOfType(national: string, type: NumberType): boolean {
  return (!type.lengths || type.lengths.includes(national.length)) && type.pattern.test(national);
}

/**
 * True when the national number is a mobile or fixed-line number of the country: then
 * libphonenumber calls it valid. False says only that this cheap check does not know.
 */
export function isMobileOrFixedLine(country: CountryCode, national: string): boolean {
  const plan = mobilePlanOf(country);
  return (
    plan !== null && plan.general.test(national) && plan.types.some((t) => isOfType(national, t))
  );
}

/** True when `phone.isValid()` would be, at a fraction of the cost for mobile numbers. */
export function isValidPhone(phone: PhoneNumber): boolean {
  const { country, nationalNumber } = phone;
  if (country && isMobileOrFixedLine(country, nationalNumber)) return true;
  return phone.isValid();
}

/**
 * True for a valid number that is a mobile, or that its region does not tell apart from one
 * (the US and Canada write both alike): the mobile pattern first, libphonenumber's type
 * otherwise.
 */
export function isMobilePhone(phone: PhoneNumber): boolean {
  const { country, nationalNumber } = phone;
  const mobile = country ? mobilePlanOf(country)?.mobile : undefined;
  if (mobile && isOfType(nationalNumber, mobile)) return true;
  const type = phone.getType();
  return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
}

/** Whether the cheap path applies to a country's numbers (false would mean every check is slow). */
export function hasMobilePlan(country: CountryCode): boolean {
  return mobilePlanOf(country) !== null;
}
