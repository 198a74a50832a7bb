import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RetCode, WirebirdError } from '../errors.js';
import { MAX_LIST_ENTRIES, flatten, signingText, unflatten } from './flattened.js';

// What the UCloud Python SDK's encoder.encode gives for NESTED (computed with the SDK in shared/).
const NESTED = {
  Action: 'SendUSMSMessage',
  PhoneNumbers: ['+8613800000013', '(86)13800000014'],
  TemplateParams: ['a', 1, true, 2.0, 2.5],
  International: false,
  Obj: { K: 'v', L: [{ A: 'b' }] },
};
const SDK_ENCODED = {
  Action: 'SendUSMSMessage',
  'PhoneNumbers.0': '+8613800000013',
  'PhoneNumbers.1': '(86)13800000014',
  'TemplateParams.0': 'a',
  'TemplateParams.1': '1',
  'TemplateParams.2': 'true',
  'TemplateParams.3': '2',
  'TemplateParams.4': '2.5',
  International: 'false',
  'Obj.K': 'v',
  'Obj.L.0.A': 'b',
};

function refused(fn: () => unknown, retCode: number, message: RegExp): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof WirebirdError, `expected a WirebirdError, got ${String(e)}`);
    assert.equal(e.retCode, retCode, e.message);
    assert.match(e.message, message);
    return true;
  });
}

test('flatten encodes a nested body exactly as the UCloud SDK does', () => {
  assert.deepEqual(flatten(NESTED), SDK_ENCODED);
});

test('unflatten reads the SDK form back into lists and objects (values stay strings)', () => {
  assert.deepEqual(unflatten(SDK_ENCODED), {
    Action: 'SendUSMSMessage',
    PhoneNumbers: ['+8613800000013', '(86)13800000014'],
    TemplateParams: ['a', '1', 'true', '2', '2.5'],
    International: 'false',
    Obj: { K: 'v', L: [{ A: 'b' }] },
  });
});

test('unflatten orders list entries by their number, not by the order they came in', () => {
  const body = unflatten({ 'SessionNoSet.1': 'b', 'SessionNoSet.0': 'a', 'SessionNoSet.2': 'c' });
  assert.deepEqual(body.SessionNoSet, ['a', 'b', 'c']);
  const ten = Object.fromEntries([...Array(12).keys()].map((i) => [`K.${i}`, String(i)]));
  assert.deepEqual(unflatten(ten).K, [...Array(12).keys()].map(String));
});

test('a list with a gap is refused naming the missing entry', () => {
  refused(
    () => unflatten({ 'PhoneNumbers.0': 'a', 'PhoneNumbers.2': 'c' }),
    RetCode.InvalidParameter,
    /PhoneNumbers has PhoneNumbers\.2 but no PhoneNumbers\.1/,
  );
  refused(
    () => unflatten({ 'PhoneNumbers.1': 'b' }),
    RetCode.InvalidParameter,
    /no PhoneNumbers\.0/,
  );
});

test('a name given as a value and as a list, or a list mixed with fields, is refused', () => {
  refused(() => unflatten({ A: 'x', 'A.0': 'y' }), RetCode.InvalidParameter, /^A is given both/);
  refused(() => unflatten({ 'A.0': 'y', A: 'x' }), RetCode.InvalidParameter, /^A is given both/);
  refused(() => unflatten({ 'A.0': 'y', 'A.B': 'x' }), RetCode.InvalidParameter, /mixes/);
  refused(() => unflatten({ 'A..0': 'y' }), RetCode.InvalidParameter, /empty part/);
});

test(`a list of more than ${MAX_LIST_ENTRIES} entries is refused as a limit`, () => {
  const many = Object.fromEntries(
    [...Array(10_000).keys()].map((i) => [`PhoneNumbers.${i}`, '+8613800000013']),
  );
  refused(() => unflatten(many), RetCode.LimitExceeded, /PhoneNumbers has 10000 entries/);
  const most = Object.fromEntries([...Array(MAX_LIST_ENTRIES).keys()].map((i) => [`P.${i}`, 'x']));
  assert.equal((unflatten(most).P as unknown[]).length, MAX_LIST_ENTRIES);
});

test('signingText: every parameter but Signature, sorted by name, then the private key', () => {
  const text = signingText({ b: '2', Signature: 'zzz', a: '1', B: '3' }, 'KEY');
  assert.equal(text, 'B3a1b2KEY');
});
