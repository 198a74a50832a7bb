import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SharedRateLimiter } from './shared-rate-limiter.js';

/** A shared bucket that hands out a fixed sequence of grants, recording what was asked. */
function bucket(grants: number[]) {
  const asked: [string, number, number][] = [];
  const waits: number[] = [];
  const limiter = new SharedRateLimiter(
    'smsc-a',
    100,
    async (route, wanted, rate) => {
      asked.push([route, wanted, rate]);
      return Math.min(wanted, grants.shift() ?? wanted);
    },
    async (ms) => {
      waits.push(ms);
    },
  );
  return { limiter, asked, waits };
}

test('takes what it needs in one draw when the shared bucket has it', async () => {
  const { limiter, asked, waits } = bucket([50]);
  await limiter.take(50);
  assert.deepEqual(asked, [['smsc-a', 50, 100]]);
  assert.deepEqual(waits, []);
});

test('draws again for what is missing after waiting for the refill', async () => {
  const { limiter, asked, waits } = bucket([30, 0, 50, 20]);
  await limiter.take(100);
  assert.deepEqual(
    asked.map((a) => a[1]),
    [100, 70, 70, 20],
  );
  // 70 missing at 100/s is 700 ms; 20 missing is 200 ms.
  assert.deepEqual(waits, [700, 700, 200]);
});

test('never waits more than a second, nor less than 5 ms, between draws', async () => {
  const { limiter, waits } = bucket([0, 0, 1000, 0, 3]);
  await limiter.take(1000);
  await limiter.take(4);
  assert.deepEqual(waits, [1000, 1000, 40, 10]);
  const small = bucket([0]);
  await small.limiter.take(0.1);
  assert.deepEqual(small.waits, [5]);
});
