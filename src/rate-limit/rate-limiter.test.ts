import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { RateLimiter } from './rate-limiter.js';
import { until } from '../../test/helpers/eventually.js';

/** A clock that moves only when the test moves it. */
class ManualClock {
  constructor(public t = 1_000_000) {}
  readonly now = (): number => this.t;
  advance(ms: number): void {
    this.t += ms;
  }
}

/** Tracks whether a promise has settled, without waiting for it. */
function track(p: Promise<unknown>): { settled: () => boolean; promise: Promise<unknown> } {
  let settled = false;
  const promise = p.then(
    () => (settled = true),
    () => (settled = true),
  );
  return { settled: () => settled, promise };
}

/** Polls (bounded) until cond holds; real waits only give the limiter's timers a chance to run. */
test('take(n) within the bucket resolves at once, without the clock moving', async () => {
  const clock = new ManualClock();
  const limiter = new RateLimiter(10, clock.now);
  const a = track(limiter.take(4));
  const b = track(limiter.take(6));
  await tick();
  assert.ok(a.settled() && b.settled());
});

test('beyond the bucket, take waits until the clock has advanced enough', async () => {
  const clock = new ManualClock();
  const limiter = new RateLimiter(1000, clock.now);
  await limiter.take(1000); // the whole bucket
  const waiting = track(limiter.take(10));
  // Let the limiter's own timers run several times: the clock has not moved, so it stays put.
  for (let i = 0; i < 10; i++) await sleep(2);
  assert.equal(waiting.settled(), false, 'settled with no tokens');
  clock.advance(5); // 5 tokens: half of what it needs
  for (let i = 0; i < 10; i++) await sleep(2);
  assert.equal(waiting.settled(), false, 'settled with only half its tokens');
  clock.advance(5);
  await until(waiting.settled, 'take(10) to settle once 10 ms of tokens accrued');
});

test('a take larger than the bucket is let through as tokens accrue', async () => {
  const clock = new ManualClock();
  const limiter = new RateLimiter(100, clock.now);
  const big = track(limiter.take(250));
  for (let i = 0; i < 5; i++) await sleep(2);
  assert.equal(big.settled(), false);
  clock.advance(1000); // 100 more: 200 of 250
  for (let i = 0; i < 5; i++) await sleep(5);
  assert.equal(big.settled(), false);
  clock.advance(500); // 50 more: 250
  await until(big.settled, 'take(250) to settle');
});

test('the bucket holds at most one second of tokens however long it was idle', async () => {
  const clock = new ManualClock();
  const limiter = new RateLimiter(50, clock.now);
  await limiter.take(50);
  clock.advance(3_600_000); // an hour idle
  const first = track(limiter.take(50));
  await tick();
  assert.ok(first.settled(), 'a full bucket after idling');
  const more = track(limiter.take(1));
  for (let i = 0; i < 10; i++) await sleep(2);
  assert.equal(more.settled(), false, 'more than one second of burst was stored');
  clock.advance(20);
  await until(more.settled, 'the next token');
});

test('never lets more than rate + burst through per second of clock time', async () => {
  const rate = 100;
  const stepMs = 100;
  const steps = 30; // 3 s of clock time
  const clock = new ManualClock();
  const limiter = new RateLimiter(rate, clock.now);
  const grants: number[] = [];
  let stopping = false;
  const taker = async () => {
    while (!stopping) {
      await limiter.take(1);
      // `stopping` may have been set during the await; TypeScript keeps the loop's narrowing
      // (microsoft/TypeScript#9998).
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
      if (!stopping) grants.push(clock.now());
    }
  };
  const takers = Array.from({ length: 10 }, taker);

  const start = clock.now();
  // The initial bucket (the burst) goes at once.
  await until(() => grants.length >= rate, 'the initial burst');
  for (let s = 1; s <= steps; s++) {
    clock.advance(stepMs);
    const expected = rate + (s * stepMs * rate) / 1000;
    await until(() => grants.length >= expected, `${expected} grants after step ${s}`);
    // Give greedy takers a few more chances: nothing beyond the accrued tokens may pass.
    for (let i = 0; i < 3; i++) await sleep(2);
    assert.equal(grants.length, expected, `grants after ${s * stepMs} ms of clock time`);
  }
  const elapsedS = (clock.now() - start) / 1000;
  assert.ok(grants.length <= rate * elapsedS + rate, 'total beyond rate × time + burst');
  for (const t of grants) {
    const inWindow = grants.filter((g) => g >= t && g < t + 1000).length;
    assert.ok(inWindow <= 2 * rate, `${inWindow} grants in the second from ${t - start} ms`);
  }

  stopping = true;
  clock.advance(60_000); // lets every waiting taker through so it can see `stopping`
  await Promise.all(takers);
});
