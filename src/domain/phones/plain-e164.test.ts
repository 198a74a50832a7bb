import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getCountries, getCountryCallingCode } from 'libphonenumber-js/max';
import examples from 'libphonenumber-js/mobile/examples';
import json from 'libphonenumber-js/max/metadata';
import { parsePhone } from './phone-reading.js';
import { readPlainE164 } from './plain-e164.js';

/** A small seeded generator, so that a failure names a number that fails again. */
function digitsFrom(seed: number): (length: number) => string {
  let state = seed;
  return (length) => {
    let out = '';
    for (let i = 0; i < length; i++) {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      out += String((state >>> 16) % 10);
    }
    return out;
  };
}

/** Each country's example mobile and the numbers around it, a national prefix in front too. */
function nearExamples(): string[] {
  const out: string[] = [];
  for (const country of getCountries()) {
    const national = examples[country];
    if (!national) continue;
    const code = getCountryCallingCode(country);
    for (const v of [national, national.slice(0, -1), `${national}7`, `0${national}`]) {
      out.push(`+${code}${v}`);
    }
    // Every single-digit change of the example: many are valid numbers of other kinds or ranges.
    for (let i = 0; i < national.length; i++) {
      for (let d = 0; d <= 9; d++) {
        out.push(`+${code}${national.slice(0, i)}${d}${national.slice(i + 1)}`);
      }
    }
  }
  return out;
}

/** Random national numbers of every plausible length behind every calling code. */
function randomNumbers(): string[] {
  const digits = digitsFrom(20261124);
  const codes = [...Object.keys(json.country_calling_codes), ...Object.keys(json.nonGeographic)];
  const out: string[] = [];
  for (const code of codes) {
    for (let length = 4; length <= 15 - code.length; length++) {
      for (let i = 0; i < 12; i++) out.push(`+${code}${digits(length)}`);
    }
  }
  return out;
}

test('where it answers, it answers exactly as libphonenumber’s parser does', () => {
  let answered = 0;
  const texts = [...nearExamples(), ...randomNumbers()];
  for (const text of texts) {
    const plain = readPlainE164(text);
    if (plain === undefined) continue;
    answered++;
    assert.deepEqual(plain, parsePhone(text, undefined), text);
  }
  assert.ok(texts.length > 40_000, `only ${texts.length} numbers tried`);
  assert.ok(answered > 10_000, `answered only ${answered}: the check proves little`);
});

test('reads the mobiles of the regions bulk SMS goes to itself (a library upgrade must not drop it)', () => {
  // RU shares +7 with KZ and claims its numbers by leading digits; AR's national prefix pattern
  // is all optional, so it matches nothing in front of a mobile.
  for (const country of [
    'CN',
    'US',
    'GB',
    'IN',
    'DE',
    'BR',
    'ID',
    'NG',
    'PH',
    'RU',
    'AR',
  ] as const) {
    const text = `+${getCountryCallingCode(country)}${examples[country]}`;
    assert.deepEqual(readPlainE164(text), { ok: true, e164: text, country }, country);
  }
});

test('leaves anything but plain E.164 of a main region to the parser', () => {
  for (const text of [
    '+86 138 0013 8000', // separators
    ' +8613800138000', // leading space
    '008613800138000', // an international prefix instead of '+'
    '+16045550123', // +1 shared: a Canadian number is not the main region's (US)
    '+441481256789', // +44 shared: a Guernsey number is not the main region's (GB)
    '+80012345678', // a non-geographic code
    '+0123456789', // no calling code starts with 0
    '+8613800138000123', // 16 digits
    '+9991234567', // no such calling code
    '+77710009998', // +7 shared: a Kazakh mobile is not the main region's (RU)
    '+440201234567', // a national prefix in front of a number GB does not know
  ]) {
    assert.equal(readPlainE164(text), undefined, text);
  }
});

test('leaves a number that starts like a national prefix to the parser, even a valid one', () => {
  // RW's national prefix is 0, and 06395877 is a valid RW fixed line as it stands: the parser
  // decides whether to strip the 0 (here it does not), so this path does not guess.
  assert.equal(readPlainE164('+25006395877'), undefined);
  assert.deepEqual(parsePhone('+25006395877', undefined), {
    ok: true,
    e164: '+25006395877',
    country: 'RW',
  });
});
