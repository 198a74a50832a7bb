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
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      out += String(Math.floor((state / 2 ** 31) * 10));
    }
    return out;
  };
}

/** Each country's example mobile and the numbers around it, national prefixes in front too. */
function nearExamples(): string[] {
  const out: string[] = [];
  for (const country of getCountries()) {
    const national = examples[country];
    if (!national) continue;
    const code = getCountryCallingCode(country);
    for (const v of [
      national,
      national.slice(0, -1),
      `${national}7`,
      `0${national}`,
      `1${national.slice(1)}`,
      `9${national.slice(1)}`,
    ]) {
      out.push(`+${code}${v}`);
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
  assert.ok(texts.length > 20_000, `only ${texts.length} numbers tried`);
  assert.ok(answered > 1000, `answered only ${answered}: the check proves little`);
});

test('reads the mobiles of the regions bulk SMS goes to itself (a library upgrade must not drop it)', () => {
  for (const country of ['CN', 'US', 'GB', 'IN', 'DE', 'BR', 'ID', 'NG', 'PH'] as const) {
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
    '+440201234567', // a national prefix to strip
  ]) {
    assert.equal(readPlainE164(text), undefined, text);
  }
});
