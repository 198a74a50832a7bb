import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { DueQueue } from './report-queue.js';
import { until } from '../../../test/helpers/eventually.js';

class ManualClock {
  constructor(public t = 1_000) {}
  readonly now = (): number => this.t;
}

function recorder<T>() {
  const batches: T[][] = [];
  return { batches, fire: (items: T[]) => batches.push(items), all: () => batches.flat() };
}

test('fires an item once it is due (real short delays)', async () => {
  const r = recorder<string>();
  const q = new DueQueue(r.fire, Date.now);
  q.add(Date.now() + 5, 'a');
  assert.equal(q.size, 1);
  await until(() => r.all().length === 1, 'the item');
  assert.deepEqual(r.all(), ['a']);
  assert.equal(q.size, 0);
});

test('an item already due fires promptly', async () => {
  const r = recorder<string>();
  const q = new DueQueue(r.fire, Date.now);
  q.add(Date.now() - 1000, 'late');
  await until(() => r.all().length === 1, 'the overdue item');
  assert.deepEqual(r.all(), ['late']);
});

test('fires in due order even when added out of order', async () => {
  const r = recorder<string>();
  const now = Date.now();
  const q = new DueQueue(r.fire, Date.now);
  q.add(now + 30, 'c');
  q.add(now + 10, 'a');
  q.add(now + 20, 'b');
  q.add(now + 40, 'd');
  q.add(now + 15, 'a2');
  await until(() => r.all().length === 5, 'every item');
  assert.deepEqual(r.all(), ['a', 'a2', 'b', 'c', 'd']);
});

test('nothing fires before the clock says it is due', async () => {
  const clock = new ManualClock();
  const r = recorder<string>();
  const q = new DueQueue(r.fire, clock.now);
  q.add(clock.t, 'now');
  q.add(clock.t + 5, 'later');
  await until(() => r.all().length === 1, 'the due item');
  // The queue's timer comes round again (5 ms of real time each), but the clock has not moved.
  for (let i = 0; i < 10; i++) await sleep(2);
  assert.deepEqual(r.all(), ['now']);
  assert.equal(q.size, 1);
  clock.t += 5;
  await until(() => r.all().length === 2, 'the later item once due');
  assert.deepEqual(r.batches, [['now'], ['later']]);
  q.clear();
});

test('items that fall due together fire in one batch, in due order', async () => {
  const clock = new ManualClock();
  const r = recorder<number>();
  const q = new DueQueue(r.fire, clock.now);
  for (const d of [9, 3, 7, 1, 5, 3]) q.add(clock.t + d, d);
  clock.t += 100; // everything is due by the time the timer runs
  await until(() => r.all().length === 6, 'the batch');
  assert.deepEqual(r.batches, [[1, 3, 3, 5, 7, 9]]);
});

test('equal due times keep the order they were added in', async () => {
  const clock = new ManualClock();
  const r = recorder<string>();
  const q = new DueQueue(r.fire, clock.now);
  q.add(clock.t + 2, 'x');
  q.add(clock.t + 1, 'first');
  q.add(clock.t + 2, 'y');
  q.add(clock.t + 2, 'z');
  clock.t += 2;
  await until(() => r.all().length === 4, 'the items');
  assert.deepEqual(r.all(), ['first', 'x', 'y', 'z']);
});

test('an earlier item added later re-arms the timer for it', async () => {
  const r = recorder<string>();
  const q = new DueQueue(r.fire, Date.now);
  q.add(Date.now() + 60_000, 'far');
  q.add(Date.now() + 2, 'near');
  await until(() => r.all().length === 1, 'the near item');
  assert.deepEqual(r.all(), ['near']);
  assert.equal(q.size, 1);
  q.clear();
});

test('clear() stops pending items from firing', async () => {
  const clock = new ManualClock();
  const r = recorder<string>();
  const q = new DueQueue(r.fire, clock.now);
  q.add(clock.t + 3, 'a');
  q.add(clock.t + 4, 'b');
  q.clear();
  assert.equal(q.size, 0);
  clock.t += 1000;
  for (let i = 0; i < 10; i++) await sleep(2);
  assert.deepEqual(r.batches, []);
  // The queue is usable again afterwards.
  q.add(clock.t, 'c');
  await until(() => r.all().length === 1, 'an item added after clear()');
  assert.deepEqual(r.all(), ['c']);
});
