/**
 * The outbox worker's hand-backs (issue 35, item 10), against a store that records its calls:
 * a stop releases what was claimed and not sent, and a lane that reopens after an outage has
 * what failed during it retried at once, recorded first.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import type {
  ClaimedDelivery,
  DeliveryClaim,
  DeliveryResult,
  WebhookEndpoint,
} from '../domain/events/endpoint.js';
import type { WebhookStore } from '../domain/ports.js';
import { OutboxWorker } from './outbox-worker.js';
import { newWebhookSecret } from './signing.js';
import type { SendAnswer } from './webhook-sender.js';

const ENDPOINT = {
  endpointId: 'we_1',
  accountId: 1,
  url: 'https://receiver.example/hook',
  secret: 'sealed',
  disabled: false,
} as WebhookEndpoint;

/** The store calls the worker makes, in order, and the deliveries it hands out. */
class FakeStore {
  readonly calls: string[] = [];
  readonly released: DeliveryClaim[][] = [];
  readonly recorded: DeliveryResult[] = [];
  due: ClaimedDelivery[] = [];
  readonly template: ClaimedDelivery;
  private onRelease: (() => void) | undefined;

  constructor(count: number) {
    this.template = {
      eventId: 0,
      endpointId: ENDPOINT.endpointId,
      claim: 1,
      attempt: 1,
      type: 'message.receipt',
      body: '{"n":0}',
    };
    this.due = Array.from({ length: count }, (_, i) => ({
      eventId: i + 1,
      endpointId: ENDPOINT.endpointId,
      claim: 1,
      attempt: 1,
      type: 'message.receipt' as const,
      body: `{"n":${i + 1}}`,
    }));
  }

  releasedOnce(): Promise<void> {
    return new Promise((resolve) => (this.onRelease = resolve));
  }

  asStore(): WebhookStore {
    const store: Pick<
      WebhookStore,
      'listEndpoints' | 'claimDeliveries' | 'recordDeliveries' | 'releaseDeliveries'
    > = {
      listEndpoints: () => Promise.resolve([ENDPOINT]),
      claimDeliveries: (_id, _now, limit) => {
        const taken = this.due.splice(0, limit);
        if (taken.length > 0) this.calls.push(`claim ${taken.map((d) => d.eventId).join(',')}`);
        return Promise.resolve(taken);
      },
      recordDeliveries: (results) => {
        this.recorded.push(...results);
        this.calls.push(`record ${results.map((r) => `${r.eventId}:${r.state}`).join(',')}`);
        return Promise.resolve();
      },
      releaseDeliveries: (claims) => {
        this.released.push([...claims]);
        this.calls.push(`release ${claims.map((c) => c.eventId).join(',')}`);
        this.onRelease?.();
        return Promise.resolve(claims.length);
      },
    };
    // The worker calls only these four.
    return store as WebhookStore;
  }
}

function worker(
  store: FakeStore,
  send: (eventId: number) => Promise<SendAnswer>,
  now: () => number = () => Date.now(),
) {
  const secret = newWebhookSecret();
  return new OutboxWorker({
    store: store.asStore(),
    box: { seal: () => 'sealed', open: () => secret },
    send: (_url, _headers, body) => send((JSON.parse(body) as { n: number }).n),
    clock: { now },
    log: pino({ level: 'silent' }),
    scheduleMs: [5_000, 300_000],
    concurrency: 2,
    disableAfterMs: 86_400_000,
    pollMs: 60_000,
    // Longer than a pass takes, shorter than the poll: the next pass must come at the probe.
    probeMs: 30,
    leaseMs: 30_000,
    random: () => 0.5,
  });
}

const answer = (statusCode: number): SendAnswer => ({
  statusCode,
  error: statusCode === 200 ? '' : 'refused',
  latencyMs: 1,
  retryAfter: undefined,
});

describe('OutboxWorker: what it hands back', () => {
  it('a stop records what was in flight and releases what was claimed and not sent', async () => {
    const store = new FakeStore(4);
    const held: (() => void)[] = [];
    let bothSent: () => void = () => undefined;
    const sent = new Promise<void>((resolve) => (bothSent = resolve));
    const w = worker(
      store,
      () =>
        new Promise((resolve) => {
          held.push(() => resolve(answer(200)));
          if (held.length === 2) bothSent();
        }),
    );
    w.start();
    await sent;
    const stopping = w.stop();
    for (const release of held) release();
    await stopping;
    assert.deepEqual(store.calls, [
      'claim 1,2,3,4',
      'record 1:delivered,2:delivered',
      'release 3,4',
    ]);
  });

  it('a lane that answers again after an outage has what failed in it retried at once', async () => {
    const store = new FakeStore(3);
    const released = store.releasedOnce();
    const w = worker(store, (eventId) => {
      // The probe after the outage finds a fresh delivery, and the receiver is back.
      if (eventId === 2) store.due.push({ ...store.template, eventId: 4, body: '{"n":4}' });
      return Promise.resolve(answer(eventId <= 2 ? 500 : 200));
    });
    w.start();
    await released;
    await w.stop();
    assert.deepEqual(
      store.released.map((list) => list.map((c) => c.eventId)),
      [[1, 2]],
    );
    const failuresRecorded = store.calls.findIndex((c) => c.includes('2:pending'));
    const release = store.calls.findIndex((c) => c.startsWith('release'));
    assert.ok(failuresRecorded >= 0 && failuresRecorded < release, store.calls.join(' | '));
  });

  it('a delivery that failed twice in the outage is released under its latest claim', async () => {
    const store = new FakeStore(1);
    const released = store.releasedOnce();
    let tries = 0;
    const w = worker(store, (eventId) => {
      if (eventId === 1 && ++tries === 1) {
        store.due.push({ ...store.template, eventId: 1, claim: 2, attempt: 2, body: '{"n":1}' });
      } else if (eventId === 1) {
        store.due.push({ ...store.template, eventId: 5, body: '{"n":5}' });
      }
      return Promise.resolve(answer(eventId === 1 ? 500 : 200));
    });
    w.start();
    await released;
    await w.stop();
    assert.deepEqual(
      store.released.map((list) => list.map((c) => `${c.eventId}:${c.claim}`)),
      [['1:2']],
    );
  });

  it('hands back, unsent, a delivery that waited in the lane past half its lease', async () => {
    const store = new FakeStore(4);
    let now = 1_000_000;
    const held: (() => void)[] = [];
    const sentIds: number[] = [];
    let bothSent: () => void = () => undefined;
    const sent = new Promise<void>((resolve) => (bothSent = resolve));
    let allSent: () => void = () => undefined;
    const fourSent = new Promise<void>((resolve) => (allSent = resolve));
    const w = worker(
      store,
      (eventId) => {
        if (sentIds.push(eventId) === 4) allSent();
        if (eventId > 2) return Promise.resolve(answer(200));
        return new Promise((resolve) => {
          held.push(() => resolve(answer(200)));
          if (held.length === 2) bothSent();
        });
      },
      () => now,
    );
    w.start();
    await sent;
    // The receiver took 16 s of a 30 s lease: 3 and 4 would start too late to end inside it.
    now += 16_000;
    const released = store.releasedOnce();
    for (const release of held) release();
    // The worker goes on with 3 and 4: hands them back, or (wrongly) sends them.
    await Promise.race([released, fourSent]);
    await w.stop();
    assert.deepEqual(sentIds, [1, 2]);
    assert.deepEqual(
      store.released.map((list) => list.map((c) => c.eventId)),
      [[3, 4]],
    );
  });
});
