import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AHEAD_MS, SendRate } from './fetch-ahead.js';

/** A rate that saw `n` sends spread evenly over `ms`. */
function after(n: number, ms: number): SendRate {
  const rate = new SendRate(0);
  for (let i = 1; i <= n; i++) rate.sent((i * ms) / n);
  return rate;
}

describe('how far a lane claims ahead', () => {
  it('holds two rounds of its concurrency before it has a rate, and for a slow receiver', () => {
    assert.equal(new SendRate(0).ahead(64), 128);
    assert.equal(after(30, 1_000).ahead(64), 128);
  });

  it("holds a quarter second's sends for a fast receiver, at most eight rounds", () => {
    // 2,000 a second: 500 in AHEAD_MS.
    assert.equal(AHEAD_MS, 250);
    assert.equal(after(1_000, 500).ahead(64), 500);
    assert.equal(after(20_000, 1_000).ahead(64), 512);
  });

  it('follows the rate as it changes', () => {
    const rate = after(2_000, 500);
    assert.equal(rate.ahead(64), 512);
    // Half a second more at 100 a second.
    for (let i = 1; i <= 50; i++) rate.sent(500 + i * 10);
    assert.equal(rate.ahead(64), 128);
  });
});
