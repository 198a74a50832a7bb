import assert from 'node:assert/strict';
import { test } from 'node:test';
import { errorCode, errorText, fieldsOf, isOneOf, textOf } from './unknown-values.js';

test('fieldsOf reads an object field by field and anything else as no fields', () => {
  assert.equal(fieldsOf({ Action: 'SendMessage' }).Action, 'SendMessage');
  for (const v of [null, undefined, 'text', 42]) assert.deepEqual(fieldsOf(v), {});
});

test('errorText and errorCode read whatever was thrown', () => {
  const err = Object.assign(new Error('port in use'), { code: 'EADDRINUSE' });
  assert.deepEqual([errorText(err), errorCode(err)], ['port in use', 'EADDRINUSE']);
  assert.deepEqual([errorText('plain'), errorCode('plain')], ['plain', undefined]);
  assert.equal(errorCode({ code: 7 }), undefined, 'a code that is not a string is none');
});

test('isOneOf narrows to the options, by identity', () => {
  assert.equal(isOneOf(['sms', 'whatsapp'], 'sms'), true);
  assert.equal(isOneOf(['sms', 'whatsapp'], 'SMS'), false);
  assert.equal(isOneOf([1, 2], '1'), false);
});

test('textOf writes strings, numbers and booleans, and nothing for the rest', () => {
  assert.deepEqual(
    ['id-1', 42, 10n, true, undefined, null, { a: 1 }, Buffer.from('x')].map(textOf),
    ['id-1', '42', '10', 'true', '', '', '', ''],
  );
});
