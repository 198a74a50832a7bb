import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FailedAttempts } from './failed-attempts.js';

describe('FailedAttempts', () => {
  it('refuses an address past its failures until the oldest counted one ages out', () => {
    let now = 0;
    const a = new FailedAttempts({ allowed: 3, windowMs: 1000, now: () => now });
    assert.equal(a.failed('x'), false);
    now = 100;
    assert.equal(a.failed('x'), false);
    now = 200;
    assert.equal(a.failed('x'), true, 'the third failure begins the lockout');
    assert.equal(a.blockedFor('x'), 800, 'until the first failure leaves the window');
    assert.equal(a.blockedFor('y'), 0, 'other addresses are not touched');
    now = 999;
    assert.equal(a.blockedFor('x'), 1);
    now = 1000;
    assert.equal(a.blockedFor('x'), 0);
  });

  it('keeps at most maxAddresses, letting the oldest go', () => {
    const a = new FailedAttempts({ allowed: 1, windowMs: 1000, now: () => 0, maxAddresses: 2 });
    a.failed('a');
    a.failed('b');
    a.failed('c');
    assert.equal(a.blockedFor('a'), 0, 'the oldest address was let go');
    assert.equal(a.blockedFor('b'), 1000);
    assert.equal(a.blockedFor('c'), 1000);
  });
});
