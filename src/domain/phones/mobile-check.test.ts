import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import { hasMobilePlan, isValidPhone } from './mobile-check.js';

/** Each country's example mobile number and numbers near it, valid and not. */
function candidates(): string[] {
  const out: string[] = [];
  for (const country of getCountries()) {
    const national = examples[country];
    if (!national) continue;
    const code = parsePhoneNumberFromString(national, country)?.countryCallingCode;
    if (!code) continue;
    const variants = [
      national,
      national.slice(0, -1),
      `${national}7`,
      `${national.slice(0, -1)}${(Number(national.at(-1)) + 1) % 10}`,
      `9${national.slice(1)}`,
      `2${national.slice(1)}`,
      `1${national.slice(1)}`,
    ];
    for (const v of variants) out.push(`+${code}${v}`);
  }
  return out;
}

test('agrees with isValid() on every country, for mobiles and the numbers around them', () => {
  let checked = 0;
  let valid = 0;
  for (const text of candidates()) {
    const phone = parsePhoneNumberFromString(text, { extract: false });
    if (!phone) continue;
    checked++;
    const expected = phone.isValid();
    if (expected) valid++;
    assert.equal(isValidPhone(phone), expected, `${text} (${phone.country ?? '?'})`);
  }
  assert.ok(checked > 1000, `only ${checked} numbers checked`);
  assert.ok(valid > 200 && valid < checked, `${valid} of ${checked} valid: not a mixed sample`);
});

test('the cheap path covers the regions bulk SMS goes to (a library upgrade must not drop it)', () => {
  for (const country of ['CN', 'US', 'GB', 'IN', 'DE', 'BR', 'ID'] as const) {
    assert.equal(hasMobilePlan(country), true, country);
  }
});
