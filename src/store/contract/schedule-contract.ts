import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { endpoint } from './outbox-contract.js';
import { CANCELED_DESC, type HeldChange } from '../../domain/messages/schedule.js';
import type { Store } from '../../domain/ports.js';
import type { HeldFilter } from '../../domain/views/views.js';
import {
  ACCOUNT,
  HOUR,
  LEASE,
  MINUTE,
  NOW,
  OTHER_ACCOUNT,
  SECOND,
  batch,
  business,
  only,
  receiptOf,
  sms,
  states,
  storeTest,
  type OpenStore,
} from './fixtures.js';

/** How many held messages a replace changed; a refusal fails the test. */
export async function replaced(
  store: Store,
  accountId: number,
  sessionNo: string,
  change: HeldChange,
): Promise<number> {
  const done = await store.replaceQueued(accountId, sessionNo, change, NOW);
  assert.ok('replaced' in done, 'refused: ' + JSON.stringify(done));
  return done.replaced;
}

export function scheduleContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('SendAt and ValidityPeriod', () => {
    test('a message due later is held until then, SMS and business alike', async (store) => {
      const due = NOW + HOUR;
      await store.acceptBatch(batch([sms()], { dueAt: due }));
      await store.acceptBusinessMessage(business({ dueAt: due }));
      assert.deepEqual(await store.claimDue(due - 1, 10, LEASE), []);
      assert.equal((await store.claimDue(due, 10, LEASE)).length, 2);
    });

    test('a queued message past its validity is not claimed; the expiry pass ends it, once', async (store) => {
      const e = endpoint({ eventTypes: ['message.receipt'] });
      await store.ensureAccount(ACCOUNT, NOW);
      await store.insertEndpoint(e);
      const expiring = batch([sms({ costCount: 2 })], { expiresAt: NOW + MINUTE });
      await store.acceptBatch(expiring);
      await store.acceptBatch(batch([sms()], { expiresAt: NOW + HOUR }));
      assert.deepEqual(await store.claimDue(NOW + MINUTE, 10, LEASE).then((c) => c.length), 1);
      assert.equal(await store.expireQueued(NOW + MINUTE, 10), 1);
      assert.equal(await store.expireQueued(NOW + MINUTE, 10), 0);
      const receipt = await receiptOf(store, expiring.sessionNo);
      assert.deepEqual(
        [receipt.ReceiptResult, receipt.ReceiptCode, receipt.CostCount],
        ['Fail', 'EXPIRED', 0],
      );
      const deliveries = await store.claimDeliveries(e.endpointId, NOW + MINUTE, 10, NOW + HOUR);
      const data = JSON.parse(only(deliveries).body) as { data: Record<string, unknown> };
      assert.deepEqual([data.data.ReceiptCode, data.data.CostCount], ['EXPIRED', 0]);
    });

    test('one claimed before its validity passed is never expired (it may be upstream)', async (store) => {
      await store.acceptBatch(batch([sms()], { expiresAt: NOW + SECOND }));
      assert.equal((await store.claimDue(NOW, 10, LEASE)).length, 1);
      assert.equal(await store.expireQueued(NOW + HOUR, 10), 0);
      // Its lease ran out mid-submit: claimed again, as any such message.
      assert.equal((await store.claimDue(NOW + LEASE, 10, LEASE)).length, 1);
    });
  });

  describe('listing held messages (the console)', () => {
    test('in due order, filtered by account, session and due time, paged', async (store) => {
      const first = batch([sms(), sms({ e164: '+16505550002' })], { dueAt: NOW + HOUR });
      await store.acceptBatch(first);
      const later = batch([sms()], { dueAt: NOW + 2 * HOUR, expiresAt: NOW + 3 * HOUR });
      await store.acceptBatch(later);
      await store.acceptBatch(batch([sms()], { accountId: OTHER_ACCOUNT, dueAt: NOW + HOUR }));
      await store.acceptBatch(batch([sms()]));
      const m = business({ dueAt: NOW + 3 * HOUR });
      await store.acceptBusinessMessage(m);
      const list = (f: Partial<HeldFilter>) =>
        store.heldMessages({ now: NOW, accountId: ACCOUNT, limit: 10, ...f });
      const all = await list({});
      assert.deepEqual(
        all.map((h) => [h.kind, h.sessionNo ?? h.messageId, h.e164, h.dueAt, h.expiresAt]),
        [
          ['sms', first.sessionNo, '+447700900123', NOW + HOUR, undefined],
          ['sms', first.sessionNo, '+16505550002', NOW + HOUR, undefined],
          ['sms', later.sessionNo, '+447700900123', NOW + 2 * HOUR, NOW + 3 * HOUR],
          ['business', m.messageId, m.e164, NOW + 3 * HOUR, undefined],
        ],
      );
      assert.equal((await store.heldMessages({ now: NOW, limit: 10 })).length, 5, 'all accounts');
      assert.equal((await list({ sessionNo: later.sessionNo })).length, 1);
      assert.equal((await list({ dueBefore: NOW + HOUR })).length, 2);
      assert.equal((await list({ now: NOW + HOUR })).length, 2, 'due by now: not held');
      const [, second] = await list({ limit: 2 });
      const after = second && { dueAt: second.dueAt, id: second.id };
      assert.deepEqual(
        (await list({ ...(after ? { after } : {}) })).map((h) => h.dueAt),
        [NOW + 2 * HOUR, NOW + 3 * HOUR],
      );
    });
  });

  describe("a session's report: its receipts and its held messages", () => {
    test('one pass answers both; another account, or a later time, sees none held', async (store) => {
      const held = batch([sms(), sms({ e164: '+16505550002', phone: '+16505550002' })], {
        dueAt: NOW + HOUR,
        expiresAt: NOW + 2 * HOUR,
      });
      await store.acceptBatch(held);
      assert.equal(await store.cancelQueued(ACCOUNT, held.sessionNo, '+16505550002', NOW), 1);
      const report = await store.sessionReport(ACCOUNT, held.sessionNo, NOW);
      assert.deepEqual(
        report.receipts.map((r) => [r.Phone, r.ReceiptCode]),
        [['+16505550002', 'CANCELED']],
      );
      assert.deepEqual(report.held, [
        {
          sessionNo: held.sessionNo,
          messageId: undefined,
          phone: sms().phone,
          dueAt: NOW + HOUR,
          expiresAt: NOW + 2 * HOUR,
          acceptedAt: NOW,
        },
      ]);
      assert.deepEqual(await store.sessionReceipts(ACCOUNT, held.sessionNo), report.receipts);
      const due = await store.sessionReport(ACCOUNT, held.sessionNo, NOW + HOUR);
      assert.deepEqual(due.held, [], 'due by then: not held');
      const theirs = await store.sessionReport(OTHER_ACCOUNT, held.sessionNo, NOW);
      assert.deepEqual(theirs, { receipts: [], held: [] });
    });
  });

  describe('replacing what was not handed upstream (replace_sm)', () => {
    test('changes the named fields of queued SMS of the session, keeps the rest', async (store) => {
      const held = batch([sms(), sms({ e164: '+16505550002' })], {
        dueAt: NOW + HOUR,
        expiresAt: NOW + 2 * HOUR,
        receiptTo: 'esme1',
      });
      await store.acceptBatch(held);
      const text = { body: 'Your code is 9999', costCount: 2 };
      const change = { text, dueAt: NOW + MINUTE, receiptTo: null };
      assert.equal(await replaced(store, OTHER_ACCOUNT, held.sessionNo, change), 0);
      const from = { ...change, senderId: 'SOMEONE' };
      assert.equal(await replaced(store, ACCOUNT, held.sessionNo, from), 0, 'another sender');
      const named = { ...change, senderId: 'WIREBIRD' };
      assert.equal(await replaced(store, ACCOUNT, held.sessionNo, named), 2);
      const claimed = await store.claimDue(NOW + MINUTE, 10, LEASE);
      assert.deepEqual(
        claimed.map((m) => [m.body, m.expiresAt]),
        [
          [text.body, NOW + 2 * HOUR],
          [text.body, NOW + 2 * HOUR],
        ],
      );
      const again = { receiptTo: null, expiresAt: NOW + HOUR };
      assert.equal(await replaced(store, ACCOUNT, held.sessionNo, again), 0, 'claimed');
    });

    test("keeps what it is not told to change; never an ESME's own part", async (store) => {
      const held = batch([sms()], { dueAt: NOW + HOUR });
      await store.acceptBatch(held);
      assert.equal(await replaced(store, ACCOUNT, held.sessionNo, { receiptTo: null }), 1);
      assert.deepEqual(await store.claimDue(NOW + HOUR - 1, 10, LEASE), [], 'still held');
      const claimed = await store.claimDue(NOW + HOUR, 10, LEASE);
      assert.equal(only(claimed).body, 'Your code is 1234');
      const part = batch([sms()], {
        dueAt: NOW + HOUR,
        concat: { ref: 7, total: 2, seq: 1, wide: false },
      });
      await store.acceptBatch(part);
      assert.equal(await replaced(store, ACCOUNT, part.sessionNo, { receiptTo: null }), 0);
    });
  });

  describe('cancelling what was not handed upstream', () => {
    test('a session: Fail, CANCELED, CostCount 0; a claimed message stays', async (store) => {
      const held = batch([sms(), sms({ e164: '+16505550002' })], { dueAt: NOW + HOUR });
      await store.acceptBatch(held);
      assert.equal(await store.cancelQueued(OTHER_ACCOUNT, held.sessionNo, undefined, NOW), 0);
      assert.equal(await store.cancelQueued(ACCOUNT, held.sessionNo, '+16505550002', NOW), 1);
      await store.claimDue(NOW + HOUR, 10, LEASE);
      assert.equal(await store.cancelQueued(ACCOUNT, held.sessionNo, undefined, NOW + HOUR), 0);
      assert.deepEqual(await states(store), { queued: 0, submitting: 1, submitted: 0, final: 1 });
    });

    test('a business message, by MessageId, only its own account and only while queued', async (store) => {
      const e = endpoint({ eventTypes: ['message.status'] });
      await store.ensureAccount(ACCOUNT, NOW);
      await store.insertEndpoint(e);
      const m = business({ dueAt: NOW + HOUR });
      await store.acceptBusinessMessage(m);
      assert.equal(await store.cancelQueuedBusiness(OTHER_ACCOUNT, m.messageId, NOW), false);
      assert.equal(await store.cancelQueuedBusiness(ACCOUNT, m.messageId, NOW), true);
      assert.equal(await store.cancelQueuedBusiness(ACCOUNT, m.messageId, NOW), false);
      const view = await store.getBusinessMessage(m.messageId, 'any');
      assert.equal(view?.status, 'failed');
      assert.deepEqual(
        view.history.map((h) => [h.status, h.code]),
        [
          ['accepted', ''],
          ['scheduled', ''],
          ['failed', 'CANCELED'],
        ],
      );
      const told = await store.claimDeliveries(e.endpointId, NOW, 10, NOW + HOUR);
      const data = told.map((d) => (JSON.parse(d.body) as { data: Record<string, unknown> }).data);
      assert.deepEqual(
        data.map((d) => [d.Status, d.SendAt, d.Error, d.Sequence]),
        [
          ['scheduled', (NOW + HOUR) / 1000, null, 1],
          ['failed', undefined, { Code: 'CANCELED', Desc: CANCELED_DESC }, 2],
        ],
      );
    });
  });
}
