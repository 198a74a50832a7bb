/** The answer to "is this a phone number we can send to", with reasons worded for the API. */
export type PhoneResult =
  { ok: true; e164: string; country: string | undefined } | { ok: false; reason: string };

// Each reason follows the field name in an API error, e.g. "PhoneNumbers.3 is too long".
export const Reason = {
  Empty: 'is empty',
  NotAString: 'must be a string',
  Invalid: 'is not a valid phone number',
  BadCharacters: 'may only contain digits, spaces, dashes, dots, parentheses and a leading +',
  TooShort: 'is too short; write it as +<country code><number>, such as +8613800000000',
  TooLong: 'is too long',
  UnknownCountryCode: 'has an unknown country code',
  NoCountryCode:
    'has no country code and no default region applies; write it as +<country code><number>, such as +8613800000000',
  Ambiguous:
    'is ambiguous: the bracketed digits read as both a country code and an area code; write it as +<country code><number>',
} as const;

export const accepted = (e164: string, country: string | undefined): PhoneResult => ({
  ok: true,
  e164,
  country,
});

export const refused = (reason: string): PhoneResult => ({ ok: false, reason });

/** A number written without a country code that is no mobile of the region it was read in. */
export const notMobileIn = (region: string): string =>
  `is not a mobile number of the default region ${region}, in which a number without a country code is read; write it as +<country code><number>, such as +14155552671, or change the region (the account's DefaultRegion, PUT /admin/accounts/{id}/default-region, or the gateway's WIREBIRD_DEFAULT_REGION)`;
