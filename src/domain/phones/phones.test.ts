import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isKnownRegion, normalizePhone, smppDigits, type PhoneResult } from './phones.js';
import { notMobileIn, Reason } from './phone-result.js';

const accepted = (e164: string, country: string | undefined): PhoneResult => ({
  ok: true,
  e164,
  country,
});

function assertRefused(raw: string, region: string, reason?: string): void {
  const result = normalizePhone(raw, region);
  assert.equal(result.ok, false, `${JSON.stringify(raw)} in ${region} should be refused`);
  if (reason !== undefined) assert.equal(result.reason, reason);
}

test('international forms with + and separators', () => {
  assert.deepEqual(normalizePhone('+8613812345678', 'US'), accepted('+8613812345678', 'CN'));
  assert.deepEqual(normalizePhone('+86 138 1234 5678', 'US'), accepted('+8613812345678', 'CN'));
  assert.deepEqual(normalizePhone('+1 (415) 555-2671', 'CN'), accepted('+14155552671', 'US'));
  assert.deepEqual(normalizePhone('+1.415.555.2671', 'CN'), accepted('+14155552671', 'US'));
});

test('(CC) prefix gives the country calling code', () => {
  assert.deepEqual(normalizePhone('(86)13812345678', 'US'), accepted('+8613812345678', 'CN'));
  assert.deepEqual(normalizePhone('(86)13812345678', 'CN'), accepted('+8613812345678', 'CN'));
  assert.deepEqual(normalizePhone('(1)4155552671', 'US'), accepted('+14155552671', 'US'));
  assert.deepEqual(normalizePhone('(1)4155552671', 'CN'), accepted('+14155552671', 'US'));
  assert.deepEqual(normalizePhone('(44)2079460001', 'CN'), accepted('+442079460001', 'GB'));
});

test('(CC) prefix wins over a national reading the region would not write that way', () => {
  // In CN, 15007635373 is also a valid mobile, but nobody in CN writes it as (1)5007635373.
  assert.deepEqual(normalizePhone('(1)5007635373', 'CN'), accepted('+15007635373', 'US'));
});

test('a bracketed group that is both a country code and a local area code is refused', () => {
  // Luxembourg +352 2984291 and Florida (352) 298-4291 are both valid.
  assertRefused(
    '(352) 298-4291',
    'US',
    'is ambiguous: the bracketed digits read as both a country code and an area code; write it as +<country code><number>',
  );
  assert.deepEqual(normalizePhone('+1 352 298 4291', 'US'), accepted('+13522984291', 'US'));
  assert.deepEqual(normalizePhone('+352 298 4291', 'US'), accepted('+3522984291', 'LU'));
});

test('00 international prefix, whatever the default region', () => {
  assert.deepEqual(normalizePhone('008613812345678', 'CN'), accepted('+8613812345678', 'CN'));
  assert.deepEqual(normalizePhone('008613812345678', 'US'), accepted('+8613812345678', 'CN'));
  assert.deepEqual(normalizePhone('00 44 20 7946 0001', 'US'), accepted('+442079460001', 'GB'));
});

test('national numbers in the default region', () => {
  assert.deepEqual(normalizePhone('13812345678', 'CN'), accepted('+8613812345678', 'CN'));
  assert.deepEqual(normalizePhone('(415) 555-2671', 'US'), accepted('+14155552671', 'US'));
  assert.deepEqual(normalizePhone('8613812345678', 'CN'), accepted('+8613812345678', 'CN'));
  assert.deepEqual(normalizePhone('07400 123456', 'GB'), accepted('+447400123456', 'GB'));
});

test('the default region decides what national digits mean', () => {
  assert.deepEqual(normalizePhone('7400123456', 'GB'), accepted('+447400123456', 'GB'));
  assert.deepEqual(normalizePhone('2079460001', 'US'), accepted('+12079460001', 'US'));
  assertRefused('13812345678', 'US');
});

// Without its country code a number is a guess at the country: a US number read in CN is a
// Chinese landline, and an SMS to it would go to the wrong country. National readings must be
// mobiles; with '+' the caller said which number they mean.
test('a national number that is no mobile of the default region is refused with a hint', () => {
  assertRefused('4155550123', 'CN', notMobileIn('CN'));
  assertRefused('010 1234 5678', 'CN', notMobileIn('CN'));
  assertRefused('020 7946 0001', 'GB', notMobileIn('GB'));
  assert.match(notMobileIn('CN'), /\+<country code><number>/);
  assert.deepEqual(normalizePhone('4155550123', 'US'), accepted('+14155550123', 'US'));
  assert.deepEqual(normalizePhone('+86 10 1234 5678', 'CN'), accepted('+861012345678', 'CN'));
  assert.deepEqual(normalizePhone('+44 20 7946 0001', 'GB'), accepted('+442079460001', 'GB'));
});

test('an unknown default region accepts only numbers that carry their own country code', () => {
  assert.deepEqual(normalizePhone('+8613812345678', 'XX'), accepted('+8613812345678', 'CN'));
  assertRefused('13812345678', 'XX', Reason.NoCountryCode);
  assertRefused('13812345678', 'cn', Reason.NoCountryCode);
});

test('invalid input is refused with a reason', () => {
  assertRefused('', 'CN', 'is empty');
  assertRefused('   ', 'CN', 'is empty');
  assertRefused('abc', 'CN');
  assertRefused('138abc12345', 'CN');
  assertRefused('call +8613812345678', 'CN');
  assertRefused('+86 138 1234 5678 ext. 5', 'CN');
  assertRefused('+86+13812345678', 'CN');
  assertRefused('１３８１２３４５６７８', 'CN'); // full-width digits
  assertRefused('12', 'CN', Reason.TooShort);
  assertRefused('+86', 'CN', Reason.TooShort);
  assertRefused('(86)', 'CN', Reason.TooShort);
  assertRefused('+999 1234 5678', 'CN', 'has an unknown country code');
  assertRefused('1234567890123456789', 'CN', 'is too long');
  assertRefused('+1234567890123456789', 'CN', 'is too long');
  assertRefused('+86 138 1234 5678 0000 0000 0000 0', 'CN', 'is too long'); // 33 characters
  assertRefused('+861381234567', 'CN'); // one digit short
  assertRefused('+86 100 0000 0000', 'CN'); // right length, no such prefix
  assertRefused(42 as unknown as string, 'CN', 'must be a string');
});

test('a repeated number gets the same answer from the cache', () => {
  const first = normalizePhone('+86 139 0000 0000', 'CN');
  const second = normalizePhone('+86 139 0000 0000', 'CN');
  assert.deepEqual(second, accepted('+8613900000000', 'CN'));
  assert.equal(second, first);
  assert.ok(Object.isFrozen(second));
  const refusedFirst = normalizePhone('+999 1234 5678', 'US');
  assert.equal(normalizePhone('+999 1234 5678', 'US'), refusedFirst);
});

test('the cache keeps regions apart', () => {
  assert.deepEqual(normalizePhone('2079460002', 'US'), accepted('+12079460002', 'US'));
  assertRefused('2079460002', 'GB', notMobileIn('GB'));
  assert.deepEqual(normalizePhone('2079460002', 'US'), accepted('+12079460002', 'US'));
});

// The simulator picks its outcome from the last four digits: 0001 Fail, 0002 SubmitFail,
// 0003 no report. These are valid numbers in the max metadata that end that way.
test('simulator test numbers are valid', () => {
  for (const end of ['0001', '0002', '0003']) {
    // CN: a China Mobile 138 mobile.
    assert.deepEqual(
      normalizePhone(`+86 138 0000 ${end}`, 'US'),
      accepted(`+861380000${end}`, 'CN'),
    );
    assert.deepEqual(normalizePhone(`1380000${end}`, 'CN'), accepted(`+861380000${end}`, 'CN'));
    // US: the 555 exchange; 555-0100..0199 is the fictional range but any 555 number is valid.
    assert.deepEqual(normalizePhone(`+1 415 555 ${end}`, 'CN'), accepted(`+1415555${end}`, 'US'));
    assert.deepEqual(normalizePhone(`(415) 555-${end}`, 'US'), accepted(`+1415555${end}`, 'US'));
    // GB: 020 7946 0xxx is Ofcom's drama range for London. (07700 900xxx, the mobile drama
    // range, is not valid in libphonenumber's metadata.)
    assert.deepEqual(normalizePhone(`+44 20 7946 ${end}`, 'CN'), accepted(`+44207946${end}`, 'GB'));
  }
  assertRefused('+44 7700 900001', 'GB');
});

test('smppDigits drops the plus', () => {
  assert.equal(smppDigits('+8613812345678'), '8613812345678');
  assert.equal(smppDigits('+14155552671'), '14155552671');
  assert.throws(() => smppDigits('8613812345678'), RangeError);
  assert.throws(() => smppDigits('+1234567890123456'), RangeError);
});

test('isKnownRegion', () => {
  assert.equal(isKnownRegion('CN'), true);
  assert.equal(isKnownRegion('US'), true);
  assert.equal(isKnownRegion('GB'), true);
  assert.equal(isKnownRegion('XX'), false);
  assert.equal(isKnownRegion('cn'), false);
  assert.equal(isKnownRegion('001'), false);
  assert.equal(isKnownRegion(''), false);
});
