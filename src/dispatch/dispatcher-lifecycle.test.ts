import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick, setTimeout as sleep } from 'node:timers/promises';
import {
  FakeChannel,
  accept,
  channelOf,
  message,
  running,
  setup,
  submitted,
  track,
  turns,
  until,
} from '../../test/helpers/dispatch-fakes.js';

test('nudge() wakes an idle loop without waiting for the poll', async () => {
  const s = setup([], [new FakeChannel('a')]);
  await running(s, async () => {
    await until(() => s.storage.claims === 1, 'the first claim');
    await turns();
    assert.equal(s.storage.claims, 1, 'an empty claim is followed by an idle wait, not a spin');
    s.storage.queue.push(message(1), message(2));
    s.dispatcher.nudge();
    await until(() => s.storage.recorded.length === 2, 'the nudged claim to be dispatched');
    // The count grew across the awaits above; TypeScript keeps the narrowing to 1 from the
    // assertion before them (microsoft/TypeScript#9998).
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition
    assert.ok(s.storage.claims >= 2);
  });
});

test('nudge() wakes every idle loop; a full claim is followed by another at once', async () => {
  const s = setup([], [new FakeChannel('a')], { loops: 3, batchSize: 3 });
  await running(s, async () => {
    await until(() => s.storage.claims === 3, 'one claim per loop');
    await turns();
    s.dispatcher.nudge();
    await until(() => s.storage.claims === 6, 'each loop to claim again');
    await turns();
    s.storage.queue.push(...[1, 2, 3, 4, 5, 6, 7, 8, 9].map((id) => message(id)));
    s.dispatcher.nudge();
    // 3 full batches and no 60 s poll between them.
    await until(() => s.storage.recorded.length === 9, 'every batch');
  });
});

test('stop() resolves and no claim happens after it', async () => {
  const s = setup([], [new FakeChannel('a')], { loops: 2 });
  s.dispatcher.start();
  await until(() => s.storage.claims === 2, 'both loops to claim');
  await turns();
  await until(track(s.dispatcher.stop()), 'stop() to resolve');
  const claims = s.storage.claims;
  s.storage.queue.push(message(1));
  s.dispatcher.nudge();
  for (let i = 0; i < 10; i++) await sleep(2);
  assert.equal(s.storage.claims, claims);
  assert.equal(s.storage.recorded.length, 0);
});

test('stop() during a submission lets that batch be recorded first', async () => {
  let release: () => void = () => {};
  const slow = channelOf('a', async (ms) => {
    await new Promise<void>((r) => (release = r));
    return ms.map(accept);
  });
  const s = setup([message(1), message(2)], [slow]);
  s.dispatcher.start();
  await until(() => s.dispatcher.counters.claimed === 2, 'the claim');
  await tick();
  const stopped = track(s.dispatcher.stop());
  await turns(5);
  assert.equal(stopped(), false, 'stop() resolved while a batch was in flight');
  release();
  await until(stopped, 'stop() to resolve');
  assert.deepEqual(s.storage.sorted(), [submitted(1), submitted(2)]);
  assert.equal(s.storage.claims, 1);
});

test('stop() while a claim is in flight resolves once that claim returns', async () => {
  const s = setup([], [new FakeChannel('a')]);
  s.storage.holdNextClaim();
  s.dispatcher.start();
  await until(() => s.storage.gate !== undefined, 'the held claim');
  const stopping = s.dispatcher.stop();
  s.storage.gate?.([]);
  try {
    await until(track(stopping), 'stop() to resolve', 300);
  } finally {
    s.dispatcher.nudge(); // frees the 60 s idle wait the bug leaves behind
    await stopping;
  }
});

test('a nudge during an in-flight claim is not lost', async () => {
  const s = setup([], [new FakeChannel('a')]);
  s.storage.holdNextClaim();
  await running(s, async () => {
    await until(() => s.storage.gate !== undefined, 'the held claim');
    // New work is stored after the claim's query ran, and the loop is told.
    s.storage.queue.push(message(1));
    s.dispatcher.nudge();
    s.storage.gate?.([]);
    await until(() => s.storage.recorded.length === 1, 'the nudged message', 300);
  });
});

test('a failing claim is logged and the loop carries on after a nudge', async () => {
  const s = setup([message(1)], [new FakeChannel('a')]);
  const realClaim = s.storage.claim.bind(s.storage);
  let failures = 0;
  s.storage.claim = async (now, limit, lease) => {
    if (failures++ === 0) throw new Error('database is locked');
    return realClaim(now, limit, lease);
  };
  await running(s, async () => {
    await until(() => failures === 1, 'the failing claim');
    await turns(10);
    assert.equal(s.storage.recorded.length, 0);
    s.dispatcher.nudge();
    await until(() => s.storage.recorded.length === 1, 'the message after the failure');
  });
});

test('the route rate limit holds chunks back until the clock allows them', async () => {
  const channel = new FakeChannel('a');
  const msgs = Array.from({ length: 2500 }, (_, i) => message(i + 1));
  const s = setup(msgs, [channel], { routeTps: 1000, window: 1000, batchSize: 2500 });
  await running(s, async () => {
    await until(() => channel.seen.length === 1, 'the first chunk (the burst)');
    for (let i = 0; i < 10; i++) await sleep(2);
    assert.equal(channel.seen.length, 1, 'a second chunk went before the clock moved');
    s.clock.t += 1000;
    await until(() => channel.seen.length === 2, 'the second chunk after one second');
    for (let i = 0; i < 10; i++) await sleep(2);
    assert.equal(channel.seen.length, 2, 'a third chunk went before the clock moved');
    s.clock.t += 500;
    await until(() => s.storage.recorded.length === 2500, 'every outcome');
    assert.deepEqual(channel.sizes, [1000, 1000, 500]);
  });
});

test("a pass held up by its upstream renews its claims' lease until it records them", async () => {
  let release: (() => void) | undefined;
  const slow = new FakeChannel('a');
  const submit = slow.submit.bind(slow);
  slow.submit = async (messages) => {
    await new Promise<void>((r) => (release = r));
    return submit(messages);
  };
  // A 30 ms lease is renewed every 10 ms of real time while the channel holds the pass.
  const s = setup([message(1), message(2, { attempts: 3 })], [slow], { leaseMs: 30 });
  await running(s, async () => {
    await until(() => s.storage.extensions.length >= 2, 'two renewals while the channel waits');
    const first = s.storage.extensions[0];
    assert.deepEqual(first?.claims, [
      { id: 1, attempt: 1 },
      { id: 2, attempt: 3 },
    ]);
    assert.equal(first.until, s.clock.now() + 30);
    release?.();
    await until(() => s.storage.recorded.length === 2, 'the outcomes');
    const renewals = s.storage.extensions.length;
    await sleep(100);
    assert.equal(s.storage.extensions.length, renewals, 'no renewal once the pass recorded');
  });
});
