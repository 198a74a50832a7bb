import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Store } from '../../domain/ports.js';
import { smppEndpointId } from '../../domain/smpp-server/receipt-endpoint.js';
import { endpoint } from './outbox-contract.js';
import {
  ACCOUNT,
  OTHER_ACCOUNT,
  LEASE,
  NOW,
  SECOND,
  batch,
  only,
  report,
  sms,
  storeTest,
  type OpenStore,
} from './fixtures.js';

const BIND = smppEndpointId('esme1');

/** Accepts one SMS (for an SMPP bind when `receiptTo` is given) and claims it. */
async function claimedOne(store: Store, receiptTo?: string) {
  const b = batch([sms()], receiptTo === undefined ? {} : { receiptTo });
  await store.acceptBatch(b);
  const claimed = only(await store.claimDue(NOW, 10, LEASE), 'claimed');
  return { sessionNo: b.sessionNo, claimed };
}

/** A claimed message's submit outcome: the upstream took it under `upstreamId`. */
const submitted = (c: Awaited<ReturnType<typeof claimedOne>>['claimed'], upstreamId: string) => ({
  id: c.id,
  attempt: c.attempts,
  kind: 'submitted' as const,
  route: c.route,
  upstream: '',
  upstreamId,
});

const forBind = async (store: Store) =>
  (await store.claimDeliveries(BIND, NOW + 100 * SECOND, 100, NOW + 200 * SECOND)).map(
    (d) => JSON.parse(d.body) as { type: string; data: Record<string, unknown> },
  );

export function smppReceiptsContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('receipts for SMPP binds', () => {
    test("a message submitted for a bind's receipts makes its receipt an event for the bind", async (store) => {
      const { sessionNo, claimed } = await claimedOne(store, 'esme1');
      const { claimed: other } = await claimedOne(store);
      await store.recordOutcomes([submitted(claimed, 'u1'), submitted(other, 'u2')], NOW);
      await store.applyReports(
        [report('u1', 'delivered', NOW), report('u2', 'delivered', NOW)],
        NOW,
      );
      // The bind's receipt waits in the outbox, yet no webhook listing shows it (issue 35).
      const listed = await store.listDeliveries({ accountId: ACCOUNT, limit: 10 });
      assert.deepEqual(listed.deliveries, [], 'not among the webhook deliveries');
      const named = { accountId: undefined, endpointId: BIND, limit: 10 };
      assert.deepEqual((await store.listDeliveries(named)).deliveries, [], 'not by name either');
      const [only1, ...rest] = await forBind(store);
      assert.deepEqual(rest, [], 'only the message submitted for the bind');
      assert.equal(only1?.type, 'message.receipt');
      assert.deepEqual([only1.data.SessionNo, only1.data.ReceiptResult], [sessionNo, 'Success']);
    });

    test("with no subscriber, a plain message's receipt and then a bind's both finish; only the bind hears", async (store) => {
      const plain = await claimedOne(store);
      const forEsme = await claimedOne(store, 'esme1');
      await store.recordOutcomes(
        [submitted(plain.claimed, 'p1'), submitted(forEsme.claimed, 'e1')],
        NOW,
      );
      // The plain one first: the store may finish it without reading the row back.
      await store.applyReports([report('p1', 'delivered', NOW)], NOW);
      await store.applyReports([report('e1', 'failed', NOW)], NOW);
      const result = async (sessionNo: string) =>
        (await store.sessionReceipts(ACCOUNT, sessionNo)).map((r) => r.ReceiptResult);
      assert.deepEqual(await result(plain.sessionNo), ['Success']);
      assert.deepEqual(await result(forEsme.sessionNo), ['Fail']);
      const told = await forBind(store);
      assert.deepEqual(
        told.map((e) => [e.type, e.data.SessionNo, e.data.ReceiptResult]),
        [['message.receipt', forEsme.sessionNo, 'Fail']],
      );
    });

    // An SMSC may hand out an id again after wrapping around: the newest message owns it.
    for (const receiptTo of [undefined, 'esme1']) {
      const who = receiptTo ? "a bind's" : 'nobody told';
      test(`${who}: one report finishes the newest of two messages given the same id`, async (store) => {
        const older = await claimedOne(store, receiptTo);
        const newer = await claimedOne(store, receiptTo);
        await store.recordOutcomes(
          [submitted(older.claimed, 'dup'), submitted(newer.claimed, 'dup')],
          NOW,
        );
        await store.applyReports([report('dup', 'delivered', NOW)], NOW);
        const result = async (s: string) =>
          (await store.sessionReceipts(ACCOUNT, s)).map((r) => r.ReceiptResult);
        assert.deepEqual(await result(newer.sessionNo), ['Success'], 'the newest is final');
        assert.deepEqual(await result(older.sessionNo), [], 'the older still awaits its own');
        const told = (await forBind(store)).map((e) => e.data.SessionNo);
        assert.deepEqual(told, receiptTo ? [newer.sessionNo] : [], 'one receipt, the newest');
      });
    }

    test('cancelQueued ends only queued messages of the account, one number or all', async (store) => {
      const b = batch(
        [
          sms({ e164: '+8613800000001' }),
          sms({ e164: '+8613800000002' }),
          sms({ e164: '+8613800000003' }),
        ],
        { receiptTo: 'esme1' },
      );
      await store.acceptBatch(b);
      const [claimed] = await store.claimDue(NOW, 1, LEASE);
      assert.ok(claimed);
      assert.equal(
        await store.cancelQueued(OTHER_ACCOUNT, b.sessionNo, undefined, NOW),
        0,
        'not this account',
      );
      assert.equal(
        await store.cancelQueued(ACCOUNT, b.sessionNo, claimed.e164, NOW),
        0,
        'claimed already',
      );
      const queued = ['+8613800000001', '+8613800000002', '+8613800000003'].filter(
        (p) => p !== claimed.e164,
      );
      assert.equal(await store.cancelQueued(ACCOUNT, b.sessionNo, queued[0], NOW), 1);
      assert.equal(await store.cancelQueued(ACCOUNT, b.sessionNo, undefined, NOW), 1);
      assert.equal(await store.cancelQueued(ACCOUNT, b.sessionNo, undefined, NOW), 0);
      const receipts = await store.sessionReceipts(ACCOUNT, b.sessionNo);
      assert.deepEqual(
        receipts.map((r) => [r.ReceiptResult, r.ReceiptCode]),
        [
          ['Fail', 'CANCELED'],
          ['Fail', 'CANCELED'],
        ],
      );
      assert.equal((await forBind(store)).length, 2, 'each cancel is a receipt for the bind');
    });

    test('a submission refused for good (SubmitFail) reaches the bind and the webhooks', async (store) => {
      await store.ensureAccount(101, NOW);
      const hook = endpoint();
      await store.insertEndpoint(hook);
      const { sessionNo, claimed } = await claimedOne(store, 'esme1');
      await store.recordOutcomes(
        [{ id: claimed.id, attempt: claimed.attempts, kind: 'failed', code: 'X', desc: 'no' }],
        NOW,
      );
      const [toBind] = await forBind(store);
      assert.deepEqual(
        [toBind?.data.SessionNo, toBind?.data.ReceiptResult],
        [sessionNo, 'SubmitFail'],
      );
      const hooked = await store.claimDeliveries(hook.endpointId, NOW + SECOND, 10, NOW + LEASE);
      assert.equal(hooked.length, 1, 'SubmitFail is an event for webhook endpoints too');
    });
  });
}
