import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { ReceiptSweeper } from './receipt-sweeper.js';

const log = pino({ level: 'silent' });

class ManualClock {
  constructor(public t = 1_700_000_000_000) {}
  now(): number {
    return this.t;
  }
}

interface ExpireCall {
  cutoff: number;
  now: number;
  limit: number;
}

/** expireAwaiting answering the scripted counts in turn (0 once they run out). */
function scriptedStore(counts: (number | Error)[]) {
  const calls: ExpireCall[] = [];
  let i = 0;
  return {
    calls,
    store: {
      async expireAwaiting(cutoff: number, now: number, limit: number): Promise<number> {
        calls.push({ cutoff, now, limit });
        const answer = counts[i++] ?? 0;
        if (answer instanceof Error) throw answer;
        return answer;
      },
    },
  };
}

test('sweep() expires with cutoff = now - timeoutMs and returns the count', async () => {
  const clock = new ManualClock();
  const { calls, store } = scriptedStore([3]);
  const sweeper = new ReceiptSweeper(store, clock, 43_200_000, log);
  assert.equal(await sweeper.sweep(), 3);
  assert.deepEqual(calls, [{ cutoff: clock.t - 43_200_000, now: clock.t, limit: 1000 }]);
});

test('sweep() loops while a pass returns the limit, and returns the total', async () => {
  const clock = new ManualClock();
  const { calls, store } = scriptedStore([1000, 1000, 1000, 7, 1000]);
  const sweeper = new ReceiptSweeper(store, clock, 60_000, log);
  assert.equal(await sweeper.sweep(), 3007);
  assert.equal(calls.length, 4);
  for (const c of calls) {
    assert.equal(c.limit, 1000);
    assert.equal(c.cutoff, c.now - 60_000);
  }
});

test('sweep() stops after a pass of exactly zero', async () => {
  const { calls, store } = scriptedStore([1000, 0]);
  const sweeper = new ReceiptSweeper(store, new ManualClock(), 1000, log);
  assert.equal(await sweeper.sweep(), 1000);
  assert.equal(calls.length, 2);
});

test('nothing to expire → 0 after one call', async () => {
  const { calls, store } = scriptedStore([]);
  const sweeper = new ReceiptSweeper(store, new ManualClock(), 1000, log);
  assert.equal(await sweeper.sweep(), 0);
  assert.equal(calls.length, 1);
});

test('a failing store is logged, not thrown; the count so far is returned', async () => {
  const { calls, store } = scriptedStore([1000, new Error('database is locked')]);
  const sweeper = new ReceiptSweeper(store, new ManualClock(), 1000, log);
  assert.equal(await sweeper.sweep(), 1000);
  assert.equal(calls.length, 2);
});

test('the cutoff follows the clock between sweeps', async () => {
  const clock = new ManualClock();
  const { calls, store } = scriptedStore([]);
  const sweeper = new ReceiptSweeper(store, clock, 5000, log);
  await sweeper.sweep();
  clock.t += 12_345;
  await sweeper.sweep();
  assert.deepEqual(
    calls.map((c) => c.cutoff),
    [clock.t - 12_345 - 5000, clock.t - 5000],
  );
});

test('start() sweeps on its interval; stop() ends it', async () => {
  const { calls, store } = scriptedStore([]);
  const sweeper = new ReceiptSweeper(store, new ManualClock(), 1000, log, 1);
  sweeper.start();
  for (let i = 0; i < 2000 && calls.length < 2; i++) await sleep(1);
  await sweeper.stop();
  assert.ok(calls.length >= 2, `only ${calls.length} sweeps`);
  const after = calls.length;
  for (let i = 0; i < 10; i++) await sleep(2);
  assert.equal(calls.length, after, 'a sweep ran after stop()');
});
