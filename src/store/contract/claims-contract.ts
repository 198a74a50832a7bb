import assert from 'node:assert/strict';
import { describe } from 'node:test';
import {
  ACCOUNT,
  DAY,
  LEASE,
  MINUTE,
  NOW,
  ROUTE,
  SECOND,
  batch,
  byId,
  claimAll,
  only,
  sms,
  states,
  storeTest,
  submittedOne,
  type OpenStore,
} from './fixtures.js';

export function claimsContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('claimDue', () => {
    test('claims only messages already due, an accepted one from its acceptance on', async (store) => {
      const early = batch([sms({ e164: '+447700900001' })]);
      const late = batch([sms({ e164: '+447700900002' })], { acceptedAt: NOW + 10 * SECOND });
      await store.acceptBatch(early);
      await store.acceptBatch(late);
      assert.deepEqual(await store.claimDue(NOW - 1, 10, LEASE), []);
      assert.equal(only(await store.claimDue(NOW, 10, LEASE)).e164, '+447700900001');
      assert.deepEqual(await store.claimDue(NOW + 10 * SECOND - 1, 10, LEASE), []);
      assert.equal(only(await store.claimDue(NOW + 10 * SECOND, 10, LEASE)).e164, '+447700900002');
    });

    test('claims at most `limit` messages, each once', async (store) => {
      await store.acceptBatch(batch([sms(), sms(), sms(), sms(), sms()]));
      const first = await store.claimDue(NOW, 2, LEASE);
      const second = await store.claimDue(NOW, 2, LEASE);
      const third = await store.claimDue(NOW, 2, LEASE);
      assert.deepEqual([first.length, second.length, third.length], [2, 2, 1]);
      assert.deepEqual(await store.claimDue(NOW, 2, LEASE), []);
      const ids = new Set([...first, ...second, ...third].map((m) => m.id));
      assert.equal(ids.size, 5);
      assert.deepEqual(await states(store), { queued: 0, submitting: 5, submitted: 0, final: 0 });
    });

    test('carries what a channel needs to submit the message', async (store) => {
      const m = sms({
        e164: '+447700900123',
        route: 'smpp-a',
        senderId: 'ACME',
        extendCode: '42',
        text: 'Votre code est 9876',
      });
      await store.acceptBatch(batch([m]));
      const c = only(await store.claimDue(NOW, 10, LEASE));
      assert.equal(typeof c.id, 'number');
      assert.deepEqual(
        {
          kind: c.kind,
          accountId: c.accountId,
          route: c.route,
          attempts: c.attempts,
          e164: c.e164,
          senderId: c.senderId,
          extendCode: c.extendCode,
          body: c.body,
          messageId: c.messageId,
        },
        {
          kind: 'sms',
          accountId: ACCOUNT,
          route: 'smpp-a',
          attempts: 1,
          e164: '+447700900123',
          senderId: 'ACME',
          extendCode: '42',
          body: 'Votre code est 9876',
          messageId: undefined,
        },
      );
    });

    test('a claimed message is not claimed again while its lease lasts', async (store) => {
      await store.acceptBatch(batch([sms(), sms()]));
      assert.equal((await claimAll(store, NOW)).length, 2);
      assert.deepEqual(await store.claimDue(NOW + 1, 10, LEASE), []);
      assert.deepEqual(await store.claimDue(NOW + LEASE - 1, 10, LEASE), []);
    });

    test('after its lease expires (its worker died) it is claimed again, attempts counted', async (store) => {
      await store.acceptBatch(batch([sms(), sms()]));
      const first = await claimAll(store, NOW);
      assert.deepEqual(
        first.map((m) => m.attempts),
        [1, 1],
      );
      const again = (await store.claimDue(NOW + LEASE + 1, 10, LEASE)).sort(byId);
      assert.deepEqual(
        again.map((m) => m.id),
        first.map((m) => m.id),
      );
      assert.deepEqual(
        again.map((m) => m.attempts),
        [2, 2],
      );
      assert.deepEqual(await store.claimDue(NOW + LEASE + 2, 10, LEASE), []);
      const third = await store.claimDue(NOW + 2 * LEASE + 2, 10, LEASE);
      assert.deepEqual(
        third.map((m) => m.attempts),
        [3, 3],
      );
    });

    test('the lease lasts the leaseMs given to the claim', async (store) => {
      await store.acceptBatch(batch());
      await store.claimDue(NOW, 10, 5 * MINUTE);
      assert.deepEqual(await store.claimDue(NOW + LEASE + 1, 10, LEASE), []);
      assert.equal(only(await store.claimDue(NOW + 5 * MINUTE + 1, 10, LEASE)).attempts, 2);
    });

    test('extendLeases keeps a claim whose worker is still at it, and only that attempt', async (store) => {
      await store.acceptBatch(
        batch([sms({ e164: '+447700900001' }), sms({ e164: '+447700900002' })]),
      );
      const [kept, lapsed] = (await store.claimDue(NOW, 10, LEASE)).sort(byId);
      assert.ok(kept && lapsed);
      // A stale attempt number (the claim was taken again since) extends nothing.
      await store.extendLeases(
        [
          { id: kept.id, attempt: kept.attempts },
          { id: lapsed.id, attempt: lapsed.attempts + 1 },
        ],
        NOW + 3 * LEASE,
      );
      const reclaimed = only(await store.claimDue(NOW + LEASE + 1, 10, 10 * LEASE));
      assert.equal(reclaimed.id, lapsed.id);
      assert.deepEqual(await store.claimDue(NOW + 3 * LEASE - 1, 10, LEASE), []);
      assert.equal(only(await store.claimDue(NOW + 3 * LEASE, 10, LEASE)).id, kept.id);
    });

    test('extendLeases leaves recorded messages alone', async (store) => {
      await store.acceptBatch(batch([sms()]));
      const c = only(await store.claimDue(NOW, 10, LEASE));
      await store.recordOutcomes(
        [
          {
            id: c.id,
            attempt: c.attempts,
            kind: 'retry',
            dueAt: NOW + SECOND,
            code: 'X',
            desc: 'x',
          },
        ],
        NOW,
      );
      await store.extendLeases([{ id: c.id, attempt: c.attempts }], NOW + DAY);
      assert.equal(only(await store.claimDue(NOW + SECOND, 10, LEASE)).id, c.id);
    });

    test('a submitted message or a final one is never claimed again', async (store) => {
      await submittedOne(store);
      await store.acceptBatch(batch([sms({ route: ROUTE })]));
      const c = only(await store.claimDue(NOW, 10, LEASE));
      await store.recordOutcomes(
        [{ id: c.id, attempt: c.attempts, kind: 'failed', code: 'E1', desc: 'refused' }],
        NOW,
      );
      assert.deepEqual(await store.claimDue(NOW + 10 * DAY, 10, LEASE), []);
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 1, final: 1 });
    });
  });
}
