/**
 * A region's numbering plan as libphonenumber's max metadata holds it. The accessors used are not
 * in the library's type declarations, so they are named here once, each optional: metadata this
 * code does not recognise reads as "unknown", and callers then leave the number to the library.
 */
import { Metadata, type CountryCode } from 'libphonenumber-js/max';

export interface NumberingPlan {
  nationalNumberPattern?: () => string;
  nationalPrefixForParsing?: () => string | undefined;
  leadingDigits?: () => string | undefined;
  type?: (
    type: string,
  ) => { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
}

const metadata = new Metadata();

/** The plan of a region; read each region once and keep what is needed, it is not cheap. */
export function numberingPlanOf(country: CountryCode): NumberingPlan | undefined {
  metadata.selectNumberingPlan(country);
  return metadata.numberingPlan;
}
