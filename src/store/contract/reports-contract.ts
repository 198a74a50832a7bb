import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Store } from '../../domain/ports.js';
import type { ReportStatus } from '../../domain/messages/message.js';
import {
  LEASE,
  MINUTE,
  NOW,
  ROUTE,
  SECOND,
  acceptOne,
  business,
  only,
  receiptOf,
  receiptsOf,
  report,
  reportedHistory,
  seconds,
  states,
  storeTest,
  submittedOne,
  type OpenStore,
} from './fixtures.js';

/** Accepts, claims and submits one business message; answers its message id and upstream id. */
async function submittedBusiness(store: Store): Promise<{ messageId: string; upstreamId: string }> {
  const m = business();
  await store.acceptBusinessMessage(m);
  const c = only(await store.claimDue(NOW, 10, LEASE));
  const upstreamId = `wamid-${c.id}`;
  await store.recordOutcomes(
    [{ id: c.id, attempt: c.attempts, kind: 'submitted', route: ROUTE, upstream: '', upstreamId }],
    NOW,
  );
  return { messageId: m.messageId, upstreamId };
}

const FINAL: [ReportStatus, string][] = [
  ['delivered', 'Success'],
  ['read', 'Success'],
  ['failed', 'Fail'],
  ['unknown', 'Unknow'],
];

export function reportsContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('applyReports', () => {
    for (const [status, result] of FINAL) {
      test(`${status} makes the message final with a ${result} receipt`, async (store) => {
        const { sessionNo, upstreamId } = await submittedOne(store);
        const at = NOW + 7_250;
        const r = report(upstreamId, status, at, { code: 'C-7', desc: `${status} desc` });
        assert.deepEqual(await store.applyReports([r], at + SECOND), { unmatched: 0 });
        const receipt = await receiptOf(store, sessionNo);
        assert.deepEqual(
          [receipt.ReceiptResult, receipt.ReceiptCode, receipt.ReceiptDesc, receipt.ReceiptTime],
          [result, 'C-7', `${status} desc`, seconds(at)],
        );
        assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 1 });
      });
    }

    test('sent is not final: no receipt yet, and a later final report gives it', async (store) => {
      const { sessionNo, upstreamId } = await submittedOne(store);
      await store.applyReports([report(upstreamId, 'sent', NOW + SECOND)], NOW + SECOND);
      assert.deepEqual(await receiptsOf(store, sessionNo), []);
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 1, final: 0 });
      await store.applyReports([report(upstreamId, 'delivered', NOW + 2 * SECOND)], NOW);
      assert.equal((await receiptOf(store, sessionNo)).ReceiptResult, 'Success');
    });

    test('a duplicate or contrary report for a final message changes nothing', async (store) => {
      const { sessionNo, upstreamId } = await submittedOne(store);
      await store.applyReports([report(upstreamId, 'delivered', NOW + SECOND)], NOW + SECOND);
      const first = await receiptOf(store, sessionNo);
      const again = [
        report(upstreamId, 'delivered', NOW + 5 * SECOND, { code: 'DUP' }),
        report(upstreamId, 'failed', NOW + 6 * SECOND),
        report(upstreamId, 'unknown', NOW + 7 * SECOND),
      ];
      assert.deepEqual(await store.applyReports(again, NOW + 8 * SECOND), { unmatched: 0 });
      assert.deepEqual(await receiptOf(store, sessionNo), first);
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 1 });
    });

    test('one call applies many reports and counts those that matched nothing', async (store) => {
      const a = await submittedOne(store);
      const b = await submittedOne(store, NOW + SECOND);
      const result = await store.applyReports(
        [
          report(a.upstreamId, 'delivered', NOW + 2 * SECOND),
          report('nobody', 'delivered', NOW + 2 * SECOND),
          report(b.upstreamId, 'failed', NOW + 2 * SECOND),
        ],
        NOW + 3 * SECOND,
      );
      assert.deepEqual(result, { unmatched: 1 });
      assert.equal((await receiptOf(store, a.sessionNo)).ReceiptResult, 'Success');
      assert.equal((await receiptOf(store, b.sessionNo)).ReceiptResult, 'Fail');
    });
  });

  describe('reports that arrive before their submit answer', () => {
    test('are counted unmatched, kept, and applied when the submit is recorded', async (store) => {
      const { sessionNo, claimed } = await acceptOne(store);
      const early = report('U-early', 'delivered', NOW + SECOND, { code: 'DELIVRD' });
      assert.deepEqual(await store.applyReports([early], NOW + SECOND), { unmatched: 1 });
      assert.deepEqual(await receiptsOf(store, sessionNo), []);
      await store.recordOutcomes(
        [
          {
            id: claimed.id,
            attempt: claimed.attempts,
            kind: 'submitted',
            route: ROUTE,
            upstream: '',
            upstreamId: 'U-early',
          },
        ],
        NOW + 2 * SECOND,
      );
      const receipt = await receiptOf(store, sessionNo);
      assert.deepEqual(
        [receipt.ReceiptResult, receipt.ReceiptCode, receipt.ReceiptTime],
        ['Success', 'DELIVRD', seconds(NOW + SECOND)],
      );
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 1 });
    });

    test('received at or before the receipt cutoff are dropped by expireAwaiting; later ones stay', async (store) => {
      const stale = await acceptOne(store);
      const fresh = await acceptOne(store);
      await store.applyReports([report('U-stale', 'delivered', NOW)], NOW);
      await store.applyReports([report('U-fresh', 'delivered', NOW)], NOW + 1);
      // The sweeper's cutoff: reports kept at NOW are as old as the receipt timeout.
      await store.expireAwaiting(NOW, NOW + MINUTE, 10);
      const submit = (claimed: typeof stale.claimed, upstreamId: string) => ({
        id: claimed.id,
        attempt: claimed.attempts,
        kind: 'submitted' as const,
        route: ROUTE,
        upstream: '',
        upstreamId,
      });
      await store.recordOutcomes(
        [submit(stale.claimed, 'U-stale'), submit(fresh.claimed, 'U-fresh')],
        NOW + MINUTE,
      );
      assert.deepEqual(await receiptsOf(store, stale.sessionNo), [], 'the stale report is gone');
      assert.equal((await receiptOf(store, fresh.sessionNo)).ReceiptResult, 'Success');
    });

    test('are applied once only: the same upstream id later is a plain duplicate', async (store) => {
      const { sessionNo, claimed } = await acceptOne(store);
      await store.applyReports([report('U-early', 'failed', NOW + SECOND)], NOW + SECOND);
      await store.recordOutcomes(
        [
          {
            id: claimed.id,
            attempt: claimed.attempts,
            kind: 'submitted',
            route: ROUTE,
            upstream: '',
            upstreamId: 'U-early',
          },
        ],
        NOW + 2 * SECOND,
      );
      const first = await receiptOf(store, sessionNo);
      assert.equal(first.ReceiptResult, 'Fail');
      const dup = report('U-early', 'delivered', NOW + 3 * SECOND);
      assert.deepEqual(await store.applyReports([dup], NOW + 3 * SECOND), { unmatched: 0 });
      assert.deepEqual(await receiptOf(store, sessionNo), first);
    });

    test('of a business message are all applied, in the order they happened', async (store) => {
      const m = business();
      await store.acceptBusinessMessage(m);
      const c = only(await store.claimDue(NOW, 10, LEASE));
      const early = [
        report('wamid-x', 'delivered', NOW + 2 * SECOND),
        report('wamid-x', 'sent', NOW + SECOND),
      ];
      assert.deepEqual(await store.applyReports(early, NOW + 3 * SECOND), { unmatched: 2 });
      await store.recordOutcomes(
        [
          {
            id: c.id,
            attempt: c.attempts,
            kind: 'submitted',
            route: ROUTE,
            upstream: '',
            upstreamId: 'wamid-x',
          },
        ],
        NOW + 4 * SECOND,
      );
      assert.equal((await store.getBusinessMessage(m.messageId, 'any'))?.status, 'delivered');
      assert.deepEqual(await reportedHistory(store, m.messageId), ['sent', 'delivered']);
    });

    test('of one instant are applied in the order statuses go', async (store) => {
      const m = business();
      await store.acceptBusinessMessage(m);
      const c = only(await store.claimDue(NOW, 10, LEASE));
      const early = [report('wamid-y', 'sent', NOW), report('wamid-y', 'failed', NOW)];
      assert.deepEqual(await store.applyReports(early, NOW), { unmatched: 2 });
      await store.recordOutcomes(
        [
          {
            id: c.id,
            attempt: c.attempts,
            kind: 'submitted',
            route: ROUTE,
            upstream: '',
            upstreamId: 'wamid-y',
          },
        ],
        NOW + SECOND,
      );
      assert.deepEqual(await reportedHistory(store, m.messageId), ['sent', 'failed']);
    });
  });

  describe('business message status', () => {
    test('moves forward with reports, each of which is kept in the history', async (store) => {
      const { messageId, upstreamId } = await submittedBusiness(store);
      await store.applyReports([report(upstreamId, 'sent', NOW + SECOND)], NOW + SECOND);
      assert.equal((await store.getBusinessMessage(messageId, 'any'))?.status, 'sent');
      const read = report(upstreamId, 'read', NOW + 3 * SECOND, { code: 'R', desc: 'seen' });
      await store.applyReports([read], NOW + 3 * SECOND);
      const view = await store.getBusinessMessage(messageId, 'any');
      assert.equal(view?.status, 'read');
      const last = view.history.at(-1);
      assert.deepEqual(last, { status: 'read', at: NOW + 3 * SECOND, code: 'R', desc: 'seen' });
    });

    test('never moves back: a delivered after a read keeps read, yet is in the history', async (store) => {
      const { messageId, upstreamId } = await submittedBusiness(store);
      const reports = [
        report(upstreamId, 'sent', NOW + SECOND),
        report(upstreamId, 'read', NOW + 3 * SECOND),
        report(upstreamId, 'delivered', NOW + 2 * SECOND),
        report(upstreamId, 'sent', NOW + SECOND),
      ];
      for (const r of reports) await store.applyReports([r], NOW + 4 * SECOND);
      assert.equal((await store.getBusinessMessage(messageId, 'any'))?.status, 'read');
      // Every report is kept, duplicates too (in whichever order the adapter lists them).
      assert.deepEqual((await reportedHistory(store, messageId)).sort(), [
        'delivered',
        'read',
        'sent',
        'sent',
      ]);
    });

    test('a read overtakes a failed, a delivered does not', async (store) => {
      const one = await submittedBusiness(store);
      await store.applyReports([report(one.upstreamId, 'failed', NOW + SECOND)], NOW);
      await store.applyReports([report(one.upstreamId, 'delivered', NOW + 2 * SECOND)], NOW);
      assert.equal((await store.getBusinessMessage(one.messageId, 'any'))?.status, 'failed');
      await store.applyReports([report(one.upstreamId, 'read', NOW + 3 * SECOND)], NOW);
      assert.equal((await store.getBusinessMessage(one.messageId, 'any'))?.status, 'read');
    });

    test('the final report makes it final, after which it is never claimed', async (store) => {
      const { messageId, upstreamId } = await submittedBusiness(store);
      await store.applyReports([report(upstreamId, 'delivered', NOW + SECOND)], NOW + SECOND);
      assert.equal((await store.getBusinessMessage(messageId, 'any'))?.status, 'delivered');
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 1 });
      assert.deepEqual(await store.claimDue(NOW + 100 * LEASE, 10, LEASE), []);
    });
  });
}
