import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Store } from '../../domain/ports.js';
import {
  NOW,
  SECOND,
  acceptOne,
  receiptOf,
  receiptsOf,
  report,
  states,
  storeTest,
  type OpenStore,
} from './fixtures.js';

/** Parts come from an SMSC: the SMPP route, and the SMSC by name as its upstream. */
const SMSC = { route: 'smpp', upstream: 'carrier' };

/** Accepts and submits one SMS as `parts` submits; answers its session and the part ids. */
async function submittedInParts(
  store: Store,
  parts: string[],
): Promise<{ sessionNo: string; parts: string[] }> {
  const { sessionNo, claimed } = await acceptOne(store, { route: SMSC.route });
  const [first] = parts;
  assert.ok(first);
  await store.recordOutcomes(
    [
      {
        id: claimed.id,
        attempt: claimed.attempts,
        kind: 'submitted',
        ...SMSC,
        upstreamId: first,
        parts,
      },
    ],
    NOW,
  );
  return { sessionNo, parts };
}

const at = (n: number) => NOW + n * SECOND;
const delivered = (id: string, n: number) =>
  report(id, 'delivered', at(n), { ...SMSC, code: 'DELIVRD:000', desc: 'delivered' });
const failed = (id: string, n: number, code: string) =>
  report(id, 'failed', at(n), { ...SMSC, code, desc: `failed ${code}` });

export function partsContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('multipart messages', () => {
    test('are final only once every part is, Success when all were delivered', async (store) => {
      const { sessionNo, parts } = await submittedInParts(store, ['a1', 'a2', 'a3']);
      await store.applyReports([delivered('a3', 1), delivered('a1', 2)], at(2));
      assert.deepEqual(await receiptsOf(store, sessionNo), []);
      assert.deepEqual(await store.applyReports([delivered('a2', 3)], at(3)), { unmatched: 0 });
      const receipt = await receiptOf(store, sessionNo);
      assert.deepEqual([receipt.ReceiptResult, receipt.ReceiptCode], ['Success', 'DELIVRD:000']);
      assert.equal(receipt.ReceiptDesc, `all ${parts.length} parts delivered`);
    });

    test('fail with the first failing part in part order', async (store) => {
      const { sessionNo } = await submittedInParts(store, ['b1', 'b2', 'b3']);
      await store.applyReports(
        [failed('b3', 1, 'EXPIRED:000'), delivered('b1', 2), failed('b2', 3, 'UNDELIV:001')],
        at(3),
      );
      const receipt = await receiptOf(store, sessionNo);
      assert.deepEqual([receipt.ReceiptResult, receipt.ReceiptCode], ['Fail', 'UNDELIV:001']);
    });

    test('a duplicate part report counts once', async (store) => {
      const { sessionNo } = await submittedInParts(store, ['c1', 'c2']);
      await store.applyReports([delivered('c1', 1), delivered('c1', 2)], at(2));
      assert.deepEqual(await receiptsOf(store, sessionNo), []);
      await store.applyReports([failed('c2', 3, 'REJECTD:000')], at(3));
      assert.equal((await receiptOf(store, sessionNo)).ReceiptResult, 'Fail');
    });

    test('a part id handed out again belongs to the newest message', async (store) => {
      const older = await submittedInParts(store, ['f1', 'f2']);
      const newer = await submittedInParts(store, ['f1', 'f3']);
      await store.applyReports([delivered('f1', 1), delivered('f3', 2)], at(2));
      assert.equal((await receiptOf(store, newer.sessionNo)).ReceiptResult, 'Success');
      assert.deepEqual(await receiptsOf(store, older.sessionNo), []);
    });

    test('a part report that came before the submit answer is applied with it', async (store) => {
      assert.deepEqual(await store.applyReports([delivered('d2', 1)], at(1)), { unmatched: 1 });
      const { sessionNo } = await submittedInParts(store, ['d1', 'd2']);
      assert.deepEqual(await receiptsOf(store, sessionNo), []);
      await store.applyReports([delivered('d1', 2)], at(2));
      assert.equal((await receiptOf(store, sessionNo)).ReceiptResult, 'Success');
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 1 });
    });
  });

  describe('upstream id readings', () => {
    test('a receipt quoting a hex answer id in decimal matches it', async (store) => {
      const { sessionNo, claimed } = await acceptOne(store, { route: SMSC.route });
      const upstreamId = 'a1b2c3';
      await store.recordOutcomes(
        [{ id: claimed.id, attempt: claimed.attempts, kind: 'submitted', ...SMSC, upstreamId }],
        NOW,
      );
      const decimal = BigInt(`0x${upstreamId}`).toString(10);
      assert.deepEqual(await store.applyReports([delivered(decimal, 1)], at(1)), { unmatched: 0 });
      assert.equal((await receiptOf(store, sessionNo)).ReceiptResult, 'Success');
    });

    test('an early receipt in the other base is applied when the answer comes', async (store) => {
      assert.deepEqual(await store.applyReports([failed('4660', 1, 'UNDELIV:001')], at(1)), {
        unmatched: 1,
      });
      const { sessionNo } = await submittedInParts(store, ['1234']);
      assert.equal((await receiptOf(store, sessionNo)).ReceiptCode, 'UNDELIV:001');
    });

    test('reports of another SMSC or another route never match', async (store) => {
      const { sessionNo } = await submittedInParts(store, ['e1', 'e2']);
      const otherSmsc = { ...delivered('e1', 1), upstream: 'other' };
      const otherRoute = { ...delivered('e2', 1), route: 'simulator', upstream: '' };
      assert.deepEqual(await store.applyReports([otherSmsc, otherRoute], at(1)), { unmatched: 2 });
      assert.deepEqual(await receiptsOf(store, sessionNo), []);
    });
  });
}
