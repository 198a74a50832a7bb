import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { ManualTime } from '../../test/helpers/manual-time.js';
import { ReceiptSweeper, sweepIntervalMs } from './receipt-sweeper.js';

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
      // Nothing is held with a ValidityPeriod in these tests.
      expireQueued: () => Promise.resolve(0),
    },
  };
}

test('sweep() expires with cutoff = now - timeoutMs and returns the count', async () => {
  const clock = new ManualClock();
  const { calls, store } = scriptedStore([3]);
  const sweeper = new ReceiptSweeper({
    store,
    clock,
    scheduler: new ManualTime(),
    timeoutMs: 43_200_000,
    log,
  });
  assert.equal(await sweeper.sweep(), 3);
  assert.deepEqual(calls, [{ cutoff: clock.t - 43_200_000, now: clock.t, limit: 1000 }]);
});

test('sweep() loops while a pass returns the limit, and returns the total', async () => {
  const clock = new ManualClock();
  const { calls, store } = scriptedStore([1000, 1000, 1000, 7, 1000]);
  const sweeper = new ReceiptSweeper({
    store,
    clock,
    scheduler: new ManualTime(),
    timeoutMs: 60_000,
    log,
  });
  assert.equal(await sweeper.sweep(), 3007);
  assert.equal(calls.length, 4);
  for (const c of calls) {
    assert.equal(c.limit, 1000);
    assert.equal(c.cutoff, c.now - 60_000);
  }
});

test('sweep() stops after a pass of exactly zero', async () => {
  const { calls, store } = scriptedStore([1000, 0]);
  const sweeper = new ReceiptSweeper({
    store,
    clock: new ManualClock(),
    scheduler: new ManualTime(),
    timeoutMs: 1000,
    log,
  });
  assert.equal(await sweeper.sweep(), 1000);
  assert.equal(calls.length, 2);
});

test('nothing to expire → 0 after one call', async () => {
  const { calls, store } = scriptedStore([]);
  const sweeper = new ReceiptSweeper({
    store,
    clock: new ManualClock(),
    scheduler: new ManualTime(),
    timeoutMs: 1000,
    log,
  });
  assert.equal(await sweeper.sweep(), 0);
  assert.equal(calls.length, 1);
});

test('a failing store is logged, not thrown; the count so far is returned', async () => {
  const { calls, store } = scriptedStore([1000, new Error('database is locked')]);
  const sweeper = new ReceiptSweeper({
    store,
    clock: new ManualClock(),
    scheduler: new ManualTime(),
    timeoutMs: 1000,
    log,
  });
  assert.equal(await sweeper.sweep(), 1000);
  assert.equal(calls.length, 2);
});

test('the cutoff follows the clock between sweeps', async () => {
  const clock = new ManualClock();
  const { calls, store } = scriptedStore([]);
  const sweeper = new ReceiptSweeper({
    store,
    clock,
    scheduler: new ManualTime(),
    timeoutMs: 5000,
    log,
  });
  await sweeper.sweep();
  clock.t += 12_345;
  await sweeper.sweep();
  assert.deepEqual(
    calls.map((c) => c.cutoff),
    [clock.t - 12_345 - 5000, clock.t - 5000],
  );
});

test('start() sweeps every tenth of the receipt timeout, and nothing before', async () => {
  const time = new ManualTime();
  const { calls, store } = scriptedStore([]);
  const sweeper = new ReceiptSweeper({
    store,
    clock: time,
    scheduler: time,
    timeoutMs: 60_000,
    log,
  });
  sweeper.start();
  await time.advance(5_999);
  assert.equal(calls.length, 0, 'no sweep before a tenth of the timeout');
  await time.advance(1);
  assert.equal(calls.length, 1);
  await time.advance(54_000);
  assert.equal(calls.length, 10, 'ten sweeps in one timeout');
  assert.deepEqual(
    calls.map((c) => c.cutoff),
    Array.from({ length: 10 }, (_, i) => 1_700_000_000_000 + 6_000 * (i + 1) - 60_000),
  );
  await sweeper.stop();
  await time.advance(60_000);
  assert.equal(calls.length, 10, 'no sweep after stop()');
  assert.equal(time.scheduled, 0);
});

test("a test's clock waits for a slow store's sweep, so no period's sweep is skipped", async () => {
  // A store as slow as PostgreSQL under load: each call takes many more event-loop turns than
  // the clock lets pass on its own. Had the clock not waited for the sweep, the next due one
  // would find it running and skip, and a message would time out a period late.
  const time = new ManualTime();
  const { calls, store } = scriptedStore([]);
  const slow = {
    expireAwaiting: async (cutoff: number, now: number, limit: number) => {
      for (let i = 0; i < 200; i++) await new Promise((r) => setImmediate(r));
      return store.expireAwaiting(cutoff, now, limit);
    },
    expireQueued: store.expireQueued,
  };
  const sweeper = new ReceiptSweeper({
    store: slow,
    clock: time,
    scheduler: time,
    timeoutMs: 60_000,
    log,
  });
  sweeper.start();
  await time.advance(60_000);
  assert.deepEqual(
    calls.map((c) => c.now - 1_700_000_000_000),
    Array.from({ length: 10 }, (_, i) => 6_000 * (i + 1)),
    'one sweep at each period, each at its own time',
  );
  await sweeper.stop();
});

test('the sweep period stays between 100 ms and 10 s', () => {
  assert.equal(sweepIntervalMs(43_200_000), 10_000);
  assert.equal(sweepIntervalMs(60_000), 6_000);
  assert.equal(sweepIntervalMs(500), 100);
});
