import assert from 'node:assert/strict';
import { describe } from 'node:test';
import {
  LEASE,
  MINUTE,
  NOW,
  ROUTE,
  SECOND,
  acceptOne,
  batch,
  business,
  only,
  receiptOf,
  receiptsOf,
  report,
  seconds,
  sms,
  states,
  storeTest,
  type OpenStore,
} from './fixtures.js';

export function outcomesContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('recordOutcomes', () => {
    test('submitted: later reports match it by (route, upstream id)', async (store) => {
      const { sessionNo, claimed } = await acceptOne(store);
      await store.recordOutcomes(
        [
          {
            id: claimed.id,
            attempt: claimed.attempts,
            kind: 'submitted',
            route: ROUTE,
            upstream: '',
            upstreamId: 'U-1',
          },
        ],
        NOW + SECOND,
      );
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 1, final: 0 });
      assert.deepEqual(await receiptsOf(store, sessionNo), []);
      const elsewhere = report('U-1', 'delivered', NOW + 2 * SECOND, { route: 'other-route' });
      assert.deepEqual(await store.applyReports([elsewhere], NOW + 2 * SECOND), { unmatched: 1 });
      assert.deepEqual(await receiptsOf(store, sessionNo), []);
      const delivered = report('U-1', 'delivered', NOW + 3 * SECOND);
      assert.deepEqual(await store.applyReports([delivered], NOW + 3 * SECOND), { unmatched: 0 });
      assert.equal((await receiptOf(store, sessionNo)).ReceiptResult, 'Success');
    });

    test('submitted: the message is not claimed again, lease or no lease', async (store) => {
      const { claimed } = await acceptOne(store);
      await store.recordOutcomes(
        [
          {
            id: claimed.id,
            attempt: claimed.attempts,
            kind: 'submitted',
            route: ROUTE,
            upstream: '',
            upstreamId: 'U-1',
          },
        ],
        NOW,
      );
      assert.deepEqual(await store.claimDue(NOW + 100 * LEASE, 10, LEASE), []);
    });

    test('retry: queued again, not claimable before its due time, claimable from it', async (store) => {
      const { sessionNo, claimed } = await acceptOne(store);
      const dueAt = NOW + 5 * MINUTE;
      await store.recordOutcomes(
        [
          {
            id: claimed.id,
            attempt: claimed.attempts,
            kind: 'retry',
            dueAt,
            code: 'THROTTLED',
            desc: 'slow down',
          },
        ],
        NOW + SECOND,
      );
      assert.deepEqual(await states(store), { queued: 1, submitting: 0, submitted: 0, final: 0 });
      assert.deepEqual(await receiptsOf(store, sessionNo), []);
      assert.deepEqual(await store.claimDue(NOW + LEASE + 1, 10, LEASE), []);
      assert.deepEqual(await store.claimDue(dueAt - 1, 10, LEASE), []);
      const again = only(await store.claimDue(dueAt, 10, LEASE));
      assert.equal(again.id, claimed.id);
      assert.equal(again.attempts, 2);
    });

    test('failed: final at once, with a SubmitFail receipt carrying its code and description', async (store) => {
      const { sessionNo, claimed } = await acceptOne(store, {
        phone: '07700 900123',
        costCount: 2,
        userId: 'u-42',
      });
      const at = NOW + 1_500;
      await store.recordOutcomes(
        [
          {
            id: claimed.id,
            attempt: claimed.attempts,
            kind: 'failed',
            code: 'REJECTD',
            desc: 'refused by the SMSC',
          },
        ],
        at,
      );
      assert.deepEqual(await receiptOf(store, sessionNo), {
        Phone: '07700 900123',
        CostCount: 2,
        ReceiptResult: 'SubmitFail',
        ReceiptCode: 'REJECTD',
        ReceiptDesc: 'refused by the SMSC',
        ReceiptTime: seconds(at),
        UserId: 'u-42',
      });
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 1 });
      assert.deepEqual(await store.claimDue(NOW + 100 * LEASE, 10, LEASE), []);
    });

    test('one call records many outcomes, each for its own message', async (store) => {
      const many = batch([1, 2, 3].map((n) => sms({ phone: `+44770090000${n}` })));
      await store.acceptBatch(many);
      const [a, b, c] = (await store.claimDue(NOW, 10, LEASE)).sort((x, y) => x.id - y.id);
      assert.ok(a && b && c);
      await store.recordOutcomes(
        [
          {
            id: a.id,
            attempt: a.attempts,
            kind: 'submitted',
            route: ROUTE,
            upstream: '',
            upstreamId: 'U-a',
          },
          {
            id: b.id,
            attempt: b.attempts,
            kind: 'retry',
            dueAt: NOW + MINUTE,
            code: 'T',
            desc: 'later',
          },
          { id: c.id, attempt: c.attempts, kind: 'failed', code: 'F', desc: 'no' },
        ],
        NOW,
      );
      assert.deepEqual(await states(store), { queued: 1, submitting: 0, submitted: 1, final: 1 });
      assert.deepEqual(
        (await receiptsOf(store, many.sessionNo)).map((r) => [r.Phone, r.ReceiptResult]),
        [['+447700900003', 'SubmitFail']],
      );
    });

    test('an outcome for a message no longer submitting (reclaimed and finished) changes nothing', async (store) => {
      const { sessionNo, claimed } = await acceptOne(store);
      // The first worker stalls past its lease; a second claims the message and finishes it.
      const reclaimAt = NOW + LEASE + 1;
      const second = only(await store.claimDue(reclaimAt, 10, LEASE));
      assert.equal(second.attempts, 2);
      await store.recordOutcomes(
        [
          {
            id: second.id,
            attempt: second.attempts,
            kind: 'submitted',
            route: ROUTE,
            upstream: '',
            upstreamId: 'U-2',
          },
        ],
        reclaimAt,
      );
      await store.applyReports([report('U-2', 'delivered', reclaimAt + SECOND)], reclaimAt);
      const receipt = await receiptOf(store, sessionNo);
      assert.equal(receipt.ReceiptResult, 'Success');
      // Then the first worker's late answers arrive.
      const late = reclaimAt + 2 * SECOND;
      await store.recordOutcomes(
        [{ id: claimed.id, attempt: claimed.attempts, kind: 'failed', code: 'X', desc: 'late' }],
        late,
      );
      await store.recordOutcomes(
        [
          {
            id: claimed.id,
            attempt: claimed.attempts,
            kind: 'retry',
            dueAt: late,
            code: 'X',
            desc: 'late',
          },
        ],
        late,
      );
      await store.recordOutcomes(
        [
          {
            id: claimed.id,
            attempt: claimed.attempts,
            kind: 'submitted',
            route: ROUTE,
            upstream: '',
            upstreamId: 'U-1',
          },
        ],
        late,
      );
      assert.deepEqual(await receiptOf(store, sessionNo), receipt);
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 1 });
      assert.deepEqual(await store.claimDue(late + 100 * LEASE, 10, LEASE), []);
      // U-2 still names the message: a duplicate report for it changes nothing either.
      await store.applyReports([report('U-2', 'failed', late + SECOND)], late + SECOND);
      assert.deepEqual(await receiptOf(store, sessionNo), receipt);
    });

    test('a business message refused at submission shows status failed', async (store) => {
      const m = business();
      await store.acceptBusinessMessage(m);
      const c = only(await store.claimDue(NOW, 10, LEASE));
      await store.recordOutcomes(
        [{ id: c.id, attempt: c.attempts, kind: 'failed', code: '131026', desc: 'no' }],
        NOW,
      );
      assert.equal((await store.getBusinessMessage(m.messageId, 'any'))?.status, 'failed');
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 1 });
    });

    test("a submitted outcome's upstream is where its reports match, within the message's route", async (store) => {
      // An SMSC's ids are its own: reports name the route and the SMSC that issued the id.
      const { sessionNo, claimed } = await acceptOne(store, { route: 'smpp' });
      const fromFallback = report('U-9', 'delivered', NOW + SECOND, { route: 'smpp' });
      const fallback = { ...fromFallback, upstream: 'fallback' };
      const primary = { ...fromFallback, upstream: 'primary', status: 'failed' as const };
      assert.deepEqual(await store.applyReports([fallback, primary], NOW + SECOND), {
        unmatched: 2,
      });
      await store.recordOutcomes(
        [
          {
            id: claimed.id,
            attempt: claimed.attempts,
            kind: 'submitted',
            route: 'smpp',
            upstream: 'fallback',
            upstreamId: 'U-9',
          },
        ],
        NOW + 2 * SECOND,
      );
      assert.equal((await receiptOf(store, sessionNo)).ReceiptResult, 'Success');
    });

    test('an outcome of an earlier attempt changes nothing while a later attempt holds the message', async (store) => {
      const { sessionNo, claimed: first } = await acceptOne(store);
      const second = only(await store.claimDue(NOW + LEASE, 10, LEASE));
      assert.equal(second.attempts, first.attempts + 1);
      // The first worker's lease expired; its late verdict must not override the second's work.
      await store.recordOutcomes(
        [{ id: first.id, attempt: first.attempts, kind: 'failed', code: 'STALE', desc: 'late' }],
        NOW + LEASE + SECOND,
      );
      assert.deepEqual(await states(store), { queued: 0, submitting: 1, submitted: 0, final: 0 });
      await store.recordOutcomes(
        [
          {
            id: second.id,
            attempt: second.attempts,
            kind: 'submitted',
            route: second.route,
            upstream: '',
            upstreamId: 'U-2',
          },
        ],
        NOW + LEASE + 2 * SECOND,
      );
      await store.applyReports(
        [report('U-2', 'delivered', NOW + LEASE + 3 * SECOND)],
        NOW + LEASE + 3 * SECOND,
      );
      assert.equal((await receiptOf(store, sessionNo)).ReceiptResult, 'Success');
    });
  });
}
