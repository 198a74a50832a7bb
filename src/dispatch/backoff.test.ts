import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RETRY_BASE_MS, RETRY_MAX_MS, retryDelayMs } from './backoff.js';

const low = () => 0;
const high = () => 0.999999999;

/** A seeded generator (mulberry32), so a run can be repeated exactly. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function baseOf(attempt: number): number {
  return Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
}

test('starts at 1 s and caps at 5 min', () => {
  assert.equal(RETRY_BASE_MS, 1000);
  assert.equal(RETRY_MAX_MS, 300_000);
  // With no jitter taken away (random → 1) the delay is the base itself.
  assert.equal(retryDelayMs(1, high), 1000);
  assert.equal(retryDelayMs(1, low), 500);
});

test('the base doubles with each attempt until the cap', () => {
  const expected = [1000, 2000, 4000, 8000, 16_000, 32_000, 64_000, 128_000, 256_000, 300_000];
  expected.forEach((base, i) => {
    const attempt = i + 1;
    assert.equal(retryDelayMs(attempt, high), base, `attempt ${attempt}, top of range`);
    assert.equal(retryDelayMs(attempt, low), base / 2, `attempt ${attempt}, bottom of range`);
  });
  for (let attempt = 2; attempt <= 9; attempt++) {
    assert.equal(retryDelayMs(attempt, high), 2 * retryDelayMs(attempt - 1, high));
  }
});

test('stays at the cap for very many attempts, never Infinity or NaN', () => {
  for (const attempt of [10, 20, 50, 1100, 1_000_000]) {
    const top = retryDelayMs(attempt, high);
    const bottom = retryDelayMs(attempt, low);
    assert.equal(top, RETRY_MAX_MS);
    assert.equal(bottom, RETRY_MAX_MS / 2);
  }
});

test('attempt 0 (or less) is treated as the first', () => {
  assert.equal(retryDelayMs(0, high), 1000);
  assert.equal(retryDelayMs(-3, high), 1000);
});

test('jitter keeps every delay within [base/2, base]', () => {
  const random = seeded(42);
  for (let attempt = 1; attempt <= 15; attempt++) {
    const base = baseOf(attempt);
    for (let i = 0; i < 500; i++) {
      const d = retryDelayMs(attempt, random);
      assert.ok(Number.isInteger(d), `integer ms, got ${d}`);
      assert.ok(
        d >= base / 2 && d <= base,
        `attempt ${attempt}: ${d} outside [${base / 2}, ${base}]`,
      );
    }
  }
});

test('jitter actually spreads the delays', () => {
  const random = seeded(7);
  const seen = new Set<number>();
  for (let i = 0; i < 100; i++) seen.add(retryDelayMs(5, random));
  assert.ok(seen.size > 50, `only ${seen.size} distinct delays out of 100`);
});

test('a floor (retryAfterMs) is honoured when it exceeds the backoff', () => {
  assert.equal(retryDelayMs(1, high, 10_000), 10_000);
  assert.equal(retryDelayMs(3, low, 2001), 2001);
  // A floor beyond the cap is still honoured: the upstream asked for it.
  assert.equal(retryDelayMs(30, high, 600_000), 600_000);
});

test('a floor below the backoff changes nothing', () => {
  assert.equal(retryDelayMs(4, high, 100), 8000);
  assert.equal(retryDelayMs(4, low, 0), 4000);
  assert.equal(retryDelayMs(4, low, 3999), 4000);
});

test('deterministic for a given random', () => {
  const a = seeded(2024);
  const b = seeded(2024);
  const first = Array.from({ length: 50 }, (_, i) => retryDelayMs((i % 12) + 1, a));
  const second = Array.from({ length: 50 }, (_, i) => retryDelayMs((i % 12) + 1, b));
  assert.deepEqual(first, second);
  assert.equal(
    retryDelayMs(3, () => 0.25),
    2500,
  );
  assert.equal(
    retryDelayMs(3, () => 0.25),
    2500,
  );
});
