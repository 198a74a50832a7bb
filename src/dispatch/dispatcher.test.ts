import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick, setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import type { Channel, SubmitResult } from '../channels/channel.js';
import type { ClaimedMessage, SubmitOutcome } from '../domain/messages/message.js';
import { retryDelayMs } from './backoff.js';
import { Dispatcher, type DispatchOptions, type DispatchStorage } from './dispatcher.js';

const log = pino({ level: 'silent' });
const random = () => 0.5;
const T0 = 1_700_000_000_000;

function message(id: number, over: Partial<ClaimedMessage> = {}): ClaimedMessage {
  const base = { id, kind: 'sms' as const, accountId: 1, route: 'a', attempts: 1 };
  const text = { e164: `+8613800${String(id).padStart(6, '0')}`, body: `hello ${id}` };
  const rest = { senderId: '', extendCode: '', messageId: undefined, businessPhone: '', type: '' };
  return { ...base, ...text, ...rest, ...over };
}

/** In-memory storage: claim hands out queued messages, record collects the outcomes. */
class FakeStorage implements DispatchStorage {
  claims = 0;
  readonly claimArgs: { now: number; limit: number; leaseMs: number }[] = [];
  readonly recorded: SubmitOutcome[] = [];
  readonly recordNows: number[] = [];
  /** Set by holdNextClaim(): the next claim waits until the test releases it. */
  gate: ((ms: ClaimedMessage[]) => void) | undefined;
  private hold = false;

  constructor(public queue: ClaimedMessage[] = []) {}

  holdNextClaim(): void {
    this.hold = true;
  }

  async claim(now: number, limit: number, leaseMs: number): Promise<ClaimedMessage[]> {
    this.claims++;
    this.claimArgs.push({ now, limit, leaseMs });
    if (!this.hold) return this.queue.splice(0, limit);
    this.hold = false;
    return new Promise((resolve) => (this.gate = resolve));
  }

  async record(outcomes: readonly SubmitOutcome[], now: number): Promise<void> {
    this.recorded.push(...outcomes);
    this.recordNows.push(now);
  }

  outcome(id: number): SubmitOutcome | undefined {
    return this.recorded.find((o) => o.id === id);
  }

  sorted(): SubmitOutcome[] {
    return [...this.recorded].sort((a, b) => a.id - b.id);
  }
}

type Answer = (m: ClaimedMessage) => SubmitResult;
const accept: Answer = (m) => ({ kind: 'accepted', upstreamId: `up-${m.id}` });

/** A channel that records every chunk it was given and answers as scripted. */
class FakeChannel implements Channel {
  readonly seen: ClaimedMessage[][] = [];
  constructor(
    readonly name: string,
    private readonly answer: Answer = accept,
    private readonly throwOnCall: (call: number) => boolean = () => false,
  ) {}
  async start(): Promise<void> {}
  async stop(): Promise<void> {}
  async submit(messages: readonly ClaimedMessage[]): Promise<SubmitResult[]> {
    this.seen.push([...messages]);
    if (this.throwOnCall(this.seen.length - 1)) throw new Error('upstream connection dropped');
    return messages.map(this.answer);
  }
  get sizes(): number[] {
    return this.seen.map((c) => c.length);
  }
  get ids(): number[] {
    return this.seen.flat().map((m) => m.id);
  }
}

// pollMs is so long that only a nudge (or stop) can explain a prompt second claim.
const LIMITS = { batchSize: 100, leaseMs: 30_000, maxAttempts: 5, window: 1000, loops: 1 };
const OPTIONS: DispatchOptions = { ...LIMITS, pollMs: 60_000, routeTps: 1_000_000 };

async function until(cond: () => boolean, what: string, tries = 2000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (cond()) return;
    await sleep(1);
  }
  assert.fail(`timed out waiting for ${what}`);
}

function track(p: Promise<unknown>): () => boolean {
  let settled = false;
  const done = () => (settled = true);
  void p.then(done, done);
  return () => settled;
}

async function turns(n = 20): Promise<void> {
  for (let i = 0; i < n; i++) await tick();
}

function setup(msgs: ClaimedMessage[], channels: Channel[], opts: Partial<DispatchOptions> = {}) {
  const storage = new FakeStorage([...msgs]);
  const clock: { t: number; now(): number } = { t: T0, now: () => clock.t };
  const byName = new Map(channels.map((c) => [c.name, c]));
  const dispatcher = new Dispatcher(storage, byName, clock, { ...OPTIONS, ...opts }, log, random);
  return { storage, clock, dispatcher };
}

/** Runs the loop until every given message has an outcome, then stops it. */
async function dispatchAll(
  msgs: ClaimedMessage[],
  channels: Channel[],
  opts: Partial<DispatchOptions> = {},
) {
  const s = setup(msgs, channels, opts);
  await running(s, () => until(() => s.storage.recorded.length >= msgs.length, 'every outcome'));
  return s;
}

/** Expected outcomes; `attempt` is the claim's attempt number. */
function submitted(id: number, route = 'a', upstreamId = `up-${id}`): SubmitOutcome {
  return { id, attempt: 1, kind: 'submitted', route, upstreamId };
}
function retry(id: number, attempt: number, dueAt: number, code: string, desc: string) {
  return { id, attempt, kind: 'retry', dueAt, code, desc };
}
function failed(id: number, attempt: number, code: string, desc: string) {
  return { id, attempt, kind: 'failed', code, desc };
}

/** A channel from just its submit function. */
function channelOf(name: string, submit: Channel['submit']): Channel {
  return { name, submit, start: async () => {}, stop: async () => {} };
}

/** Starts the loop, runs fn, and stops the loop whatever happened. */
async function running(s: ReturnType<typeof setup>, fn: () => Promise<void>): Promise<void> {
  s.dispatcher.start();
  try {
    await fn();
  } finally {
    await s.dispatcher.stop();
  }
}

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

test('rejected → failed with the channel code and desc', async () => {
  const channel = new FakeChannel('a', () => ({ kind: 'rejected', code: 'REJECTD', desc: 'no' }));
  const { storage, dispatcher } = await dispatchAll([message(7)], [channel]);
  assert.deepEqual(storage.recorded, [failed(7, 1, 'REJECTD', 'no')]);
  assert.equal(dispatcher.counters.failed, 1);
});

test('a retry on the last allowed attempt → failed, "gave up after N attempts"', async () => {
  const channel = new FakeChannel('a', () => ({ kind: 'retry', code: 'TMPFAIL', desc: 'busy' }));
  const msgs = [4, 5, 9].map((attempts) => message(attempts, { attempts }));
  const { storage } = await dispatchAll(msgs, [channel], { maxAttempts: 5 });
  assert.deepEqual(storage.sorted(), [
    retry(4, 4, T0 + retryDelayMs(4, random), 'TMPFAIL', 'busy'),
    failed(5, 5, 'TMPFAIL', 'gave up after 5 attempts: busy'),
    failed(9, 9, 'TMPFAIL', 'gave up after 9 attempts: busy'),
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

test('nudge() wakes an idle loop without waiting for the poll', async () => {
  const s = setup([], [new FakeChannel('a')]);
  await running(s, async () => {
    await until(() => s.storage.claims === 1, 'the first claim');
    await turns();
    assert.equal(s.storage.claims, 1, 'an empty claim is followed by an idle wait, not a spin');
    s.storage.queue.push(message(1), message(2));
    s.dispatcher.nudge();
    await until(() => s.storage.recorded.length === 2, 'the nudged claim to be dispatched');
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
