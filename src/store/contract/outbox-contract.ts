import assert from 'node:assert/strict';
import { describe } from 'node:test';
import {
  newEndpoint,
  type ClaimedDelivery,
  type DeliveryResult,
  type WebhookEndpoint,
} from '../../domain/events/endpoint.js';
import type { EventType, NewEvent } from '../../domain/events/event.js';
import type { Store } from '../../domain/ports.js';
import { TemplateStatus } from '../../domain/templates/template.js';
import {
  ACCOUNT,
  DAY,
  LEASE,
  NOW,
  OTHER_ACCOUNT,
  SECOND,
  business,
  report,
  storeTest,
  submittedOne,
  template,
  unique,
  type OpenStore,
} from './fixtures.js';

export function endpoint(overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  const base = {
    endpointId: unique('we'),
    accountId: ACCOUNT,
    url: 'https://hooks.example.com/in',
  };
  return { ...newEndpoint({ ...base, secret: 'sealed-secret', now: NOW }), ...overrides };
}

async function withEndpoint(store: Store, overrides: Partial<WebhookEndpoint> = {}) {
  const e = endpoint(overrides);
  await store.ensureAccount(e.accountId, NOW);
  await store.insertEndpoint(e);
  return e;
}

const event = (type: EventType, accountId = ACCOUNT): NewEvent => ({
  accountId,
  type,
  at: NOW,
  data: { Note: type },
});

/** Everything due for the endpoint now, claimed under a lease. */
const claimAll = (store: Store, e: WebhookEndpoint, now = NOW) =>
  store.claimDeliveries(e.endpointId, now, 100, now + LEASE);

function result(d: ClaimedDelivery, fields: Partial<DeliveryResult> = {}): DeliveryResult {
  return {
    eventId: d.eventId,
    endpointId: d.endpointId,
    claim: d.claim,
    attempt: d.attempt,
    at: NOW + SECOND,
    statusCode: 200,
    error: '',
    latencyMs: 3,
    state: 'delivered',
    nextAt: undefined,
    disable: undefined,
    ...fields,
  };
}

const dataOf = (d: ClaimedDelivery) =>
  (JSON.parse(d.body) as { type: string; data: Record<string, unknown> }).data;

export function outboxContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('outbox: events written with their change', () => {
    test('a receipt makes an event only for an account with a subscriber', async (store) => {
      const { upstreamId } = await submittedOne(store);
      await store.applyReports([report(upstreamId, 'delivered', NOW)], NOW);
      assert.deepEqual(await store.outboxStats(), { pending: 0, oldestPendingAt: undefined });
      const e = await withEndpoint(store);
      const other = await withEndpoint(store, { accountId: OTHER_ACCOUNT });
      const filtered = await withEndpoint(store, { eventTypes: ['message.inbound'] });
      const off = await withEndpoint(store, { disabled: true });
      const second = await submittedOne(store);
      await store.applyReports([report(second.upstreamId, 'delivered', NOW + SECOND)], NOW);
      const [d] = await claimAll(store, e);
      assert.ok(d);
      assert.equal(d.type, 'message.receipt');
      assert.equal(d.attempt, 1);
      assert.deepEqual(
        [dataOf(d).SessionNo, dataOf(d).ReceiptResult, dataOf(d).Sequence, dataOf(d).SchemaVersion],
        [second.sessionNo, 'Success', 1, 1],
      );
      for (const none of [other, filtered, off]) assert.deepEqual(await claimAll(store, none), []);
    });

    test('each new status of a business message is an event, numbered in turn', async (store) => {
      const e = await withEndpoint(store);
      const m = business();
      await store.acceptBusinessMessage(m);
      const [claimed] = await store.claimDue(NOW, 10, LEASE);
      assert.ok(claimed);
      const submitted = {
        id: claimed.id,
        attempt: claimed.attempts,
        route: claimed.route,
        upstream: '',
      };
      await store.recordOutcomes([{ ...submitted, kind: 'submitted', upstreamId: 'wamid.1' }], NOW);
      const statuses = ['sent', 'delivered', 'delivered', 'read'] as const;
      const reports = statuses.map((s, i) => report('wamid.1', s, NOW + i * SECOND));
      await store.applyReports(reports, NOW + 5 * SECOND);
      const got = await claimAll(store, e, NOW + 10 * SECOND);
      assert.deepEqual(
        got.map((d) => [d.type, dataOf(d).Status, dataOf(d).Sequence, dataOf(d).MessageId]),
        [
          ['message.status', 'sent', 1, m.messageId],
          ['message.status', 'delivered', 2, m.messageId],
          ['message.status', 'read', 3, m.messageId],
        ],
      );
    });

    test('a routed reply is an event once; an unrouted one is none', async (store) => {
      const e = await withEndpoint(store);
      await store.addBusinessPhone({
        accountId: ACCOUNT,
        businessPhone: '10690001',
        channel: 'sms',
        createdAt: NOW,
      });
      const arrived = {
        channel: 'sms' as const,
        from: '+447700900123',
        to: '10690001',
        type: 'text',
        body: 'See you soon',
        dedupeKey: 'k-1',
        complete: true,
        receivedAt: NOW,
      };
      await store.storeInbound(arrived, 'in_1');
      await store.storeInbound(arrived, 'in_2');
      await store.storeInbound({ ...arrived, to: '10690999', dedupeKey: 'k-2' }, 'in_3');
      const got = await claimAll(store, e);
      assert.deepEqual(
        got.map((d) => [d.type, dataOf(d).InboundId, dataOf(d).Text]),
        [['message.inbound', 'in_1', 'See you soon']],
      );
    });

    test('a review event is written only with the save it reports', async (store) => {
      const e = await withEndpoint(store);
      const t = template({ status: TemplateStatus.UnderReview });
      await store.insertTemplate(t);
      const approved = { ...t, status: TemplateStatus.Approved };
      const reviewed = event('template.reviewed');
      assert.ok(await store.replaceTemplate(approved, reviewed));
      assert.equal(await store.replaceTemplate(approved, reviewed), undefined, 'stale version');
      assert.equal((await claimAll(store, e)).length, 1);
    });
  });

  describe('outbox: claims, results, endpoints', () => {
    test('a claim leases its deliveries; a result for an older claim is ignored', async (store) => {
      const e = await withEndpoint(store);
      assert.equal((await store.emitEvents([event('contact.opted_out')], NOW)).length, 1);
      const [first] = await claimAll(store, e);
      assert.ok(first);
      assert.deepEqual(await claimAll(store, e, NOW + LEASE - 1), [], 'held by its lease');
      const [again] = await claimAll(store, e, NOW + LEASE);
      assert.ok(again);
      assert.equal(again.claim, first.claim + 1);
      await store.recordDeliveries([result(first)], 0);
      const page = await store.listDeliveries({ accountId: ACCOUNT, limit: 10 });
      assert.equal(page.deliveries[0]?.state, 'pending', 'the stale result changed nothing');
      await store.recordDeliveries([result(again)], 0);
      const [d] = (await store.listDeliveries({ accountId: ACCOUNT, limit: 10 })).deliveries;
      assert.deepEqual([d?.state, d?.attempts, d?.lastStatus], ['delivered', 1, 200]);
      assert.equal((await store.deliveryAttempts(ACCOUNT, e.endpointId, first.eventId)).length, 1);
      assert.deepEqual(await store.outboxStats(), { pending: 0, oldestPendingAt: undefined });
    });

    test('a release makes due now what its claim left pending, and nothing claimed since', async (store) => {
      const e = await withEndpoint(store);
      // One claim's lease runs out and another claim takes its delivery.
      await store.emitEvents([event('template.reviewed')], NOW);
      const [reclaimed] = await claimAll(store, e);
      const later = NOW + LEASE;
      assert.equal((await claimAll(store, e, later))[0]?.eventId, reclaimed?.eventId);
      await store.emitEvents([event('contact.opted_out'), event('contact.opted_in')], later);
      const [unsent, failed, ...none] = await claimAll(store, e, later);
      assert.ok(reclaimed && unsent && failed);
      assert.deepEqual(none, []);
      // One failed with an hour to wait; one was claimed and never sent.
      await store.recordDeliveries(
        [result(failed, { state: 'pending', statusCode: 503, nextAt: later + 3_600_000 })],
        0,
      );
      const now = later + SECOND;
      const released = await store.releaseDeliveries([unsent, failed, reclaimed], now);
      assert.equal(released, 2, 'the unsent and the failed; not the one claimed since');
      const due = await claimAll(store, e, now);
      assert.deepEqual(
        due.map((d) => `${d.eventId}:${d.attempt}`).sort(),
        [`${unsent.eventId}:1`, `${failed.eventId}:2`].sort(),
        'due at once, the failed one on its second attempt',
      );
      assert.equal(await store.releaseDeliveries([], now), 0);
    });

    test('a replay is not settled by a result of the claim before it', async (store) => {
      const e = await withEndpoint(store);
      const [id] = await store.emitEvents([event('contact.opted_in')], NOW);
      const [d] = await claimAll(store, e);
      assert.ok(d && id !== undefined);
      assert.equal(await store.replayEvents({ accountId: ACCOUNT, eventId: id }, NOW), 1);
      await store.recordDeliveries([result(d)], 0);
      const [again] = await claimAll(store, e);
      assert.equal(again?.eventId, id, 'still due: the replay stands');
    });

    test('failures retry, then fail; replay makes them due again', async (store) => {
      const e = await withEndpoint(store);
      await store.emitEvents([event('contact.opted_in')], NOW);
      const [d] = await claimAll(store, e);
      assert.ok(d);
      const retry = {
        statusCode: 500,
        error: 'oops',
        state: 'pending',
        nextAt: NOW + 5 * SECOND,
      } as const;
      await store.recordDeliveries([result(d, retry)], 0);
      assert.deepEqual(await claimAll(store, e, NOW + 4 * SECOND), []);
      const [second] = await claimAll(store, e, NOW + 5 * SECOND);
      assert.equal(second?.attempt, 2);
      await store.recordDeliveries(
        [result(second, { ...retry, state: 'failed', nextAt: undefined })],
        0,
      );
      assert.equal((await store.getEndpoint(ACCOUNT, e.endpointId))?.failingSince, NOW + SECOND);
      assert.equal(await store.replayEvents({ accountId: OTHER_ACCOUNT, failedSince: 0 }, NOW), 0);
      assert.equal(await store.replayEvents({ accountId: ACCOUNT, failedSince: NOW }, NOW), 1);
      const [replayed] = await claimAll(store, e, NOW + 6 * SECOND);
      assert.equal(replayed?.attempt, 1, 'the schedule starts afresh');
    });

    test('an endpoint failing past the cutoff, or answered 410, is disabled', async (store) => {
      const e = await withEndpoint(store);
      const gone = await withEndpoint(store);
      await store.emitEvents([event('contact.opted_in')], NOW);
      const [d] = await claimAll(store, e);
      const [g] = await claimAll(store, gone);
      const failed = { statusCode: 500, state: 'pending', nextAt: NOW + DAY } as const;
      await store.recordDeliveries([result(d as ClaimedDelivery, failed)], NOW);
      assert.equal((await store.getEndpoint(ACCOUNT, e.endpointId))?.disabled, false);
      await store.recordDeliveries(
        [
          result(g as ClaimedDelivery, {
            statusCode: 410,
            state: 'failed',
            disable: 'answered 410 Gone',
          }),
        ],
        0,
      );
      const after = await store.getEndpoint(ACCOUNT, gone.endpointId);
      assert.deepEqual([after?.disabled, after?.disabledReason], [true, 'answered 410 Gone']);
      await store.emitEvents([event('contact.opted_in')], NOW);
      const [d2] = await claimAll(store, e, NOW + DAY);
      await store.recordDeliveries(
        [result(d2 as ClaimedDelivery, { ...failed, at: NOW + DAY })],
        NOW + SECOND,
      );
      assert.equal((await store.getEndpoint(ACCOUNT, e.endpointId))?.disabled, true);
    });

    test('endpoints are read, changed and deleted through their account only', async (store) => {
      const e = await withEndpoint(store, { eventTypes: ['message.receipt'] });
      assert.equal(await store.getEndpoint(OTHER_ACCOUNT, e.endpointId), undefined);
      assert.equal(
        await store.updateEndpoint(OTHER_ACCOUNT, e.endpointId, { url: 'x' }, NOW),
        undefined,
      );
      assert.equal(await store.deleteEndpoint(OTHER_ACCOUNT, e.endpointId), false);
      const changed = await store.updateEndpoint(
        ACCOUNT,
        e.endpointId,
        { disabled: true, eventTypes: [] },
        NOW + 1,
      );
      assert.deepEqual(
        [changed?.disabled, changed?.eventTypes, changed?.updatedAt],
        [true, [], NOW + 1],
      );
      assert.deepEqual((await store.getEndpoint(ACCOUNT, e.endpointId))?.eventTypes, []);
      await store.updateEndpoint(ACCOUNT, e.endpointId, { disabled: false }, NOW + 2);
      await store.emitEvents([event('contact.opted_in')], NOW);
      assert.equal(await store.eventBody(OTHER_ACCOUNT, 1), undefined);
      assert.equal(
        (await store.listDeliveries({ accountId: OTHER_ACCOUNT, limit: 5 })).deliveries.length,
        0,
      );
      assert.equal(await store.deleteEndpoint(ACCOUNT, e.endpointId), true);
      assert.equal(
        (await store.listDeliveries({ accountId: ACCOUNT, limit: 5 })).deliveries.length,
        0,
      );
    });

    test('pruning lets settled history older than the cutoff go, never a pending delivery', async (store) => {
      const e = await withEndpoint(store);
      const old = { ...event('contact.opted_in'), at: NOW - 40 * DAY };
      const [settled, waiting] = await store.emitEvents([old, old], NOW);
      const [recent] = await store.emitEvents([event('contact.opted_in')], NOW);
      const claimed = await claimAll(store, e);
      const done = claimed.filter((d) => d.eventId !== waiting);
      await store.recordDeliveries(
        done.map((d) => result(d)),
        0,
      );
      assert.equal(await store.pruneOutbox(NOW - 30 * DAY, 100), 1);
      assert.equal(await store.eventBody(ACCOUNT, settled as number), undefined);
      assert.ok(await store.eventBody(ACCOUNT, waiting as number), 'its delivery is still pending');
      assert.ok(await store.eventBody(ACCOUNT, recent as number), 'younger than the cutoff');
      assert.equal(await store.pruneOutbox(NOW - 30 * DAY, 100), 0);
    });

    test('deliveries page newest first by cursor', async (store) => {
      await withEndpoint(store);
      await withEndpoint(store);
      const ids = await store.emitEvents(
        [1, 2, 3].map(() => event('contact.opted_in')),
        NOW,
      );
      assert.equal(ids.length, 3);
      const seen: string[] = [];
      let before: { eventId: number; endpointId: string } | undefined;
      do {
        const page = await store.listDeliveries({
          accountId: ACCOUNT,
          limit: 4,
          ...(before ? { before } : {}),
        });
        seen.push(...page.deliveries.map((d) => `${d.eventId}/${d.endpointId}`));
        before = page.nextCursor;
      } while (before);
      assert.equal(seen.length, 6);
      assert.equal(new Set(seen).size, 6);
      assert.deepEqual(
        seen.map((s) => Number(s.split('/')[0])),
        [...ids, ...ids].sort((a, b) => b - a),
      );
    });
  });
}
