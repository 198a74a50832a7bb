import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retryDelayMs } from './backoff.js';
import type { SubmitResult } from '../channels/channel.js';
import type { Report } from '../domain/messages/message.js';
import { RecordGate } from './record-gate.js';
import {
  FakeChannel,
  T0,
  accept,
  channelOf,
  dispatchAll,
  failed,
  message,
  random,
  retry,
  running,
  setup,
  submitted,
  until,
} from '../../test/helpers/dispatch-fakes.js';

test('accepted → submitted with the channel upstream id and the message route', async () => {
  const channel = new FakeChannel('a', (m) => ({ kind: 'accepted', upstreamId: `smsc-${m.id}` }));
  const { storage, dispatcher } = await dispatchAll([message(1), message(2)], [channel]);
  assert.deepEqual(storage.sorted(), [submitted(1, 'a', 'smsc-1'), submitted(2, 'a', 'smsc-2')]);
  assert.deepEqual(storage.claimArgs[0], { now: T0, limit: 100, leaseMs: 30_000 });
  assert.deepEqual(storage.recordNows, [T0]);
  assert.deepEqual(dispatcher.counters, { claimed: 2, submitted: 2, retried: 0, failed: 0 });
});

test('retry → retry due at now + backoff (floored by retryAfterMs), with code and desc', async () => {
  const channel = new FakeChannel('a', (m) =>
    m.id === 2
      ? { kind: 'retry', code: 'THROTTLED', desc: 'slow down', retryAfterMs: 90_000 }
      : { kind: 'retry', code: 'ESME_RTHROTTLED', desc: 'throttled' },
  );
  const msgs = [message(1, { attempts: 3 }), message(2, { attempts: 1 })];
  const { storage, dispatcher } = await dispatchAll(msgs, [channel]);
  assert.equal(retryDelayMs(3, random), 3000);
  assert.deepEqual(storage.sorted(), [
    retry(1, 3, T0 + 3000, 'ESME_RTHROTTLED', 'throttled'),
    retry(2, 1, T0 + 90_000, 'THROTTLED', 'slow down'),
  ]);
  assert.equal(dispatcher.counters.retried, 2);
});

test('a message claimed past maxAttempts (the gateway died submitting it) is not submitted: ABANDONED', async () => {
  const channel = new FakeChannel('a');
  const msgs = [message(1, { attempts: 6 }), message(2, { attempts: 5 })];
  const { storage, dispatcher } = await dispatchAll(msgs, [channel], { maxAttempts: 5 });
  assert.deepEqual(channel.ids, [2], 'only the message within the bound reaches the channel');
  assert.deepEqual(storage.sorted(), [
    failed(1, 6, 'ABANDONED', 'not submitted: attempt 6 is past maxAttempts (5)'),
    { ...submitted(2, 'a', 'up-2'), attempt: 5 },
  ]);
  assert.equal(dispatcher.counters.failed, 1);
});

test('rejected → failed with the channel code and desc', async () => {
  const channel = new FakeChannel('a', () => ({ kind: 'rejected', code: 'REJECTD', desc: 'no' }));
  const { storage, dispatcher } = await dispatchAll([message(7)], [channel]);
  assert.deepEqual(storage.recorded, [failed(7, 1, 'REJECTD', 'no')]);
  assert.equal(dispatcher.counters.failed, 1);
});

test('a retry on the last allowed attempt → failed, "gave up after N attempts"', async () => {
  const channel = new FakeChannel('a', () => ({ kind: 'retry', code: 'TMPFAIL', desc: 'busy' }));
  const msgs = [4, 5].map((attempts) => message(attempts, { attempts }));
  const { storage } = await dispatchAll(msgs, [channel], { maxAttempts: 5 });
  assert.deepEqual(storage.sorted(), [
    retry(4, 4, T0 + retryDelayMs(4, random), 'TMPFAIL', 'busy'),
    failed(5, 5, 'TMPFAIL', 'gave up after 5 attempts: busy'),
  ]);
});

test('an unknown route → retry with NOROUTE, and failed at max attempts', async () => {
  const known = new FakeChannel('a');
  const msgs = [1, 5].map((n) => message(n, { route: 'nowhere', attempts: n }));
  msgs.push(message(3, { route: 'a' }));
  const { storage } = await dispatchAll(msgs, [known], { maxAttempts: 5 });
  const [again, ok, gaveUp] = storage.sorted(); // ids 1, 3, 5
  assert.ok(again?.kind === 'retry' && gaveUp?.kind === 'failed');
  assert.equal(again.code, 'NOROUTE');
  assert.match(again.desc, /nowhere/);
  assert.equal(again.dueAt, T0 + retryDelayMs(1, random));
  assert.equal(gaveUp.code, 'NOROUTE');
  assert.match(gaveUp.desc, /^gave up after 5 attempts: .*nowhere/);
  assert.deepEqual(ok, submitted(3));
  assert.deepEqual(known.ids, [3]);
});

test('a channel that throws → retry for every message of that chunk only', async () => {
  // window 2: chunks [1,2] [3,4] [5]; the second call throws.
  const channel = new FakeChannel('a', accept, (call) => call === 1);
  const msgs = [1, 2, 3, 4, 5].map((id) => message(id));
  const { storage } = await dispatchAll(msgs, [channel], { window: 2 });
  assert.deepEqual(channel.sizes, [2, 2, 1]);
  const dueAt = T0 + retryDelayMs(1, random);
  const desc = 'the channel failed; retrying';
  assert.deepEqual(storage.sorted(), [
    submitted(1),
    submitted(2),
    retry(3, 1, dueAt, 'CHANNEL', desc),
    retry(4, 1, dueAt, 'CHANNEL', desc),
    submitted(5),
  ]);
  // At the last attempt, a throwing channel means failed.
  const throwing = new FakeChannel('a', accept, () => true);
  const last = await dispatchAll([message(1, { attempts: 5 })], [throwing]);
  const o = last.storage.outcome(1);
  assert.ok(o?.kind === 'failed' && o.code === 'CHANNEL', JSON.stringify(o));
  assert.match(o.desc, /^gave up after 5 attempts/);
});

test('a channel whose submit throws synchronously → retry, like one that rejects', async () => {
  const good = new FakeChannel('good');
  const bad = channelOf('bad', (): Promise<SubmitResult[]> => {
    throw new Error('not connected');
  });
  const s = setup([message(1, { route: 'good' }), message(2, { route: 'bad' })], [good, bad]);
  await running(s, async () => {
    await until(() => s.storage.recorded.length >= 2, 'both outcomes', 300);
    assert.deepEqual(s.storage.outcome(1), submitted(1, 'good'));
    assert.equal(s.storage.outcome(2)?.kind, 'retry');
  });
});

test('a channel answering fewer results than messages → retry for the missing ones', async () => {
  const short = channelOf('a', async (ms) => ms.slice(0, 1).map(accept));
  const { storage } = await dispatchAll([message(1), message(2)], [short]);
  const [first, second] = storage.sorted();
  assert.deepEqual(first, submitted(1));
  assert.ok(second?.kind === 'retry');
  assert.equal(second.code, 'NORESULT');
});

test('chunks handed to a channel never exceed the window', async () => {
  const channel = new FakeChannel('a');
  const msgs = Array.from({ length: 10 }, (_, i) => message(i + 1));
  await dispatchAll(msgs, [channel], { window: 3, batchSize: 10 });
  assert.deepEqual(channel.sizes, [3, 3, 3, 1]);
  assert.deepEqual(channel.ids, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);

  const many = new FakeChannel('a');
  const more = Array.from({ length: 95 }, (_, i) => message(i + 1));
  await dispatchAll(more, [many], { window: 4, batchSize: 13, loops: 3 });
  assert.ok(Math.max(...many.sizes) <= 4, `sizes ${many.sizes.join(',')}`);
  assert.equal(many.ids.length, 95);
});

test('messages of two routes go to their own channels', async () => {
  const a = new FakeChannel('a', (m) => ({ kind: 'accepted', upstreamId: `a-${m.id}` }));
  const b = new FakeChannel('b', (m) => ({ kind: 'accepted', upstreamId: `b-${m.id}` }));
  const msgs = [1, 2, 3, 4].map((id) => message(id, { route: id % 2 ? 'a' : 'b' }));
  const { storage } = await dispatchAll(msgs, [a, b]);
  assert.deepEqual(a.ids, [1, 3]);
  assert.deepEqual(b.ids, [2, 4]);
  const expected = msgs.map((m) => submitted(m.id, m.route, `${m.route}-${m.id}`));
  assert.deepEqual(storage.sorted(), expected);
});

test('a submit is held at the record gate from its answer until its outcome is recorded', async () => {
  const gate = new RecordGate();
  const reportOf = (id: number): Report => ({
    route: 'a',
    upstream: '',
    upstreamId: `up-${id}`,
    status: 'delivered',
    code: 'DELIVRD',
    desc: '',
    at: T0,
  });
  const msgs = [1, 2, 3].map((id) => message(id, { route: 'a' }));
  const s = setup(msgs, [new FakeChannel('a')], {}, gate);
  const heldWhileRecording: boolean[] = [];
  const record = s.storage.record.bind(s.storage);
  s.storage.record = async (outcomes, now) => {
    heldWhileRecording.push(
      ...outcomes.map((o) => gate.whenRecorded([reportOf(o.id)]) !== undefined),
    );
    await record(outcomes, now);
  };
  await running(s, () => until(() => s.storage.recorded.length === 3, 'every outcome'));
  assert.deepEqual(heldWhileRecording, [true, true, true], 'held until the record');
  assert.equal(gate.whenRecorded(msgs.map((m) => reportOf(m.id))), undefined, 'let go after it');
});

test('a pass whose record fails lets its submits go at the gate all the same', async () => {
  const gate = new RecordGate();
  const s = setup([message(9, { route: 'a' })], [new FakeChannel('a')], {}, gate);
  let failures = 0;
  s.storage.record = async () => {
    failures++;
    throw new Error('disk full');
  };
  await running(s, () => until(() => failures >= 1, 'the failed record'));
  const report: Report = {
    route: 'a',
    upstream: '',
    upstreamId: 'up-9',
    status: 'delivered',
    code: 'DELIVRD',
    desc: '',
    at: T0,
  };
  assert.equal(gate.whenRecorded([report]), undefined, 'a report would never be let through');
});

test('every claimed message gets exactly one outcome recorded', async () => {
  const a = new FakeChannel('a', (m) =>
    m.id % 3 === 0
      ? { kind: 'retry', code: 'BUSY', desc: 'busy' }
      : m.id % 5 === 0
        ? { kind: 'rejected', code: 'REJECTD', desc: 'no' }
        : accept(m),
  );
  const b = new FakeChannel('b', accept, (call) => call % 2 === 1);
  const routes = ['a', 'b', 'lost'];
  const msgs = Array.from({ length: 120 }, (_, i) =>
    message(i + 1, { route: routes[i % 3] as string, attempts: 1 + (i % 6) }),
  );
  const opts = { batchSize: 7, window: 2, loops: 2, maxAttempts: 5 };
  const { storage, dispatcher } = await dispatchAll(msgs, [a, b], opts);
  const ids = msgs.map((m) => m.id);
  assert.deepEqual(
    storage.sorted().map((o) => o.id),
    ids,
  );
  const c = dispatcher.counters;
  assert.equal(c.claimed, 120);
  assert.equal(c.submitted + c.retried + c.failed, 120);
});
