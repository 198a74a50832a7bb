import assert from 'node:assert/strict';
import { test } from 'node:test';
import { charCount } from './char-count.js';

test('charCount counts letters, digits and symbols one each', () => {
  assert.equal(charCount(''), 0);
  assert.equal(charCount('Code: 1234!'), 11);
});

test('charCount counts each Chinese character as one', () => {
  assert.equal(charCount('您的验证码是'), 6);
});

test('charCount counts an emoji as one, with skin tone or ZWJ sequence', () => {
  assert.equal(charCount('👍'), 1);
  assert.equal(charCount('👍🏽'), 1);
  assert.equal(charCount('👨‍👩‍👧‍👦'), 1);
  assert.equal(charCount('🇨🇳'), 1);
  assert.equal(charCount('ok👍🏽'), 3);
});

test('charCount counts a letter with a combining accent as one', () => {
  assert.equal(charCount('e\u0301'), 1);
});
