import assert from 'node:assert/strict';
import { test } from 'node:test';
import { receiptDelay } from './inbox-entry.js';

test('a receipt time in seconds is compared with acceptance to the second, never "0 ms"', () => {
  const accepted = 1_795_645_818_357; // ms
  assert.equal(receiptDelay(accepted, 1_795_645_818), 'within the second of acceptance');
  assert.equal(receiptDelay(accepted, 1_795_645_819), '1 s after acceptance');
  assert.equal(receiptDelay(accepted, 1_795_645_890), '72 s after acceptance');
  // A clock a little behind the acceptance's is not a negative delay.
  assert.equal(receiptDelay(accepted, 1_795_645_817), 'within the second of acceptance');
});
