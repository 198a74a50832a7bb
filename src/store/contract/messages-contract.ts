import assert from 'node:assert/strict';
import { IDEMPOTENCY_WINDOW_MS } from '../../domain/messages/idempotency-window.js';
import { describe } from 'node:test';
import {
  ACCOUNT,
  DAY,
  NOW,
  OTHER_ACCOUNT,
  batch,
  business,
  claimAll,
  idempotency,
  nth,
  receiptsForSessions,
  sms,
  states,
  storeTest,
  type OpenStore,
} from './fixtures.js';

export function messagesContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('acceptBatch', () => {
    test('stores every message under its session, which answers no receipt yet', async (store) => {
      const b = batch([sms({ e164: '+447700900001' }), sms({ e164: '+447700900002' })]);
      assert.deepEqual(await store.acceptBatch(b), { refused: [] });
      const receipts = await receiptsForSessions(store, ACCOUNT, [b.sessionNo]);
      assert.deepEqual([...receipts], [[b.sessionNo, []]]);
      assert.deepEqual(await states(store), { queued: 2, submitting: 0, submitted: 0, final: 0 });
      const claimed = await claimAll(store);
      assert.deepEqual(
        claimed.map((m) => m.e164),
        ['+447700900001', '+447700900002'],
      );
    });

    test('stores a large batch whole, every field of every message in order', async (store) => {
      const messages = Array.from({ length: 130 }, (_, i) =>
        sms({
          e164: `+4477009${String(i).padStart(5, '0')}`,
          text: `text ${i}`,
          extendCode: String(i),
        }),
      );
      await store.acceptBatch(batch(messages));
      const claimed = await claimAll(store);
      assert.equal(claimed.length, 130);
      claimed.forEach((m, i) => {
        assert.equal(m.e164, `+4477009${String(i).padStart(5, '0')}`);
        assert.equal(m.body, `text ${i}`);
        assert.equal(m.extendCode, String(i));
        assert.equal(m.senderId, 'WIREBIRD');
        assert.equal(m.kind, 'sms');
      });
    });

    test('is one transaction: a row that cannot be stored leaves nothing of the batch', async (store) => {
      // Row 70 sits in the second chunk, after the session and the first 64 rows were written.
      const messages = Array.from({ length: 100 }, (_, i) =>
        i === 70 ? sms({ e164: null as unknown as string }) : sms(),
      );
      const b = batch(messages);
      await assert.rejects(store.acceptBatch(b, idempotency({ key: 'atomic' })));
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 0 });
      assert.deepEqual([...(await receiptsForSessions(store, ACCOUNT, [b.sessionNo]))], []);
      assert.equal(await store.findIdempotency(ACCOUNT, 'atomic', 0), undefined);
    });

    test('stores its idempotency record with it', async (store) => {
      const idem = idempotency();
      await store.acceptBatch(batch(), idem);
      assert.deepEqual(await store.findIdempotency(ACCOUNT, idem.key, NOW - DAY), idem);
    });

    test('a second batch with a key taken within 24 hours stores nothing and answers the first record', async (store) => {
      const first = batch();
      const idem = idempotency();
      assert.deepEqual(await store.acceptBatch(first, idem), { refused: [] });
      // The window's last millisecond: 24 hours to the millisecond still answers the first.
      const later = NOW + IDEMPOTENCY_WINDOW_MS;
      const twin = batch([sms(), sms()], { acceptedAt: later });
      const twinIdem = idempotency({ requestHash: 'hash-2', response: 'second', createdAt: later });
      assert.deepEqual(await store.acceptBatch(twin, twinIdem), { raced: idem });
      const known = await receiptsForSessions(store, ACCOUNT, [first.sessionNo, twin.sessionNo]);
      assert.deepEqual([...known.keys()], [first.sessionNo]);
      assert.deepEqual(await states(store), { queued: 1, submitting: 0, submitted: 0, final: 0 });
      assert.deepEqual(await store.findIdempotency(ACCOUNT, idem.key, later - DAY), idem);
    });

    test('a key older than 24 hours can be used again', async (store) => {
      await store.acceptBatch(batch(), idempotency());
      const later = NOW + IDEMPOTENCY_WINDOW_MS + 1;
      const again = batch([sms()], { acceptedAt: later });
      const againIdem = idempotency({
        requestHash: 'hash-2',
        response: 'second',
        createdAt: later,
      });
      assert.deepEqual(await store.acceptBatch(again, againIdem), { refused: [] });
      assert.ok(
        (await receiptsForSessions(store, ACCOUNT, [again.sessionNo])).has(again.sessionNo),
      );
      assert.deepEqual(await states(store), { queued: 2, submitting: 0, submitted: 0, final: 0 });
      assert.deepEqual(await store.findIdempotency(ACCOUNT, 'key-1', later - DAY), againIdem);
    });

    test('the same key on another account is independent', async (store) => {
      const mine = batch();
      const theirs = batch([sms()], { accountId: OTHER_ACCOUNT });
      const theirIdem = idempotency({ accountId: OTHER_ACCOUNT, response: 'theirs' });
      assert.deepEqual(await store.acceptBatch(mine, idempotency()), { refused: [] });
      assert.deepEqual(await store.acceptBatch(theirs, theirIdem), { refused: [] });
      assert.ok((await receiptsForSessions(store, OTHER_ACCOUNT, [theirs.sessionNo])).size === 1);
      assert.deepEqual(await store.findIdempotency(OTHER_ACCOUNT, 'key-1', NOW - DAY), theirIdem);
      assert.deepEqual(await store.findIdempotency(ACCOUNT, 'key-1', NOW - DAY), idempotency());
    });
  });

  describe('findIdempotency', () => {
    test('answers a record created at or after notBefore, and nothing otherwise', async (store) => {
      const idem = idempotency();
      await store.acceptBatch(batch(), idem);
      assert.deepEqual(await store.findIdempotency(ACCOUNT, idem.key, NOW), idem);
      assert.equal(await store.findIdempotency(ACCOUNT, idem.key, NOW + 1), undefined);
      assert.equal(await store.findIdempotency(ACCOUNT, 'key-2', NOW - DAY), undefined);
      assert.equal(await store.findIdempotency(OTHER_ACCOUNT, idem.key, NOW - DAY), undefined);
    });
  });

  describe('acceptBusinessMessage', () => {
    test("an account reads its own message; another's is answered as unknown", async (store) => {
      const m = business();
      await store.acceptBusinessMessage(m);
      assert.equal((await store.getBusinessMessage(m.messageId, ACCOUNT))?.messageId, m.messageId);
      assert.equal(await store.getBusinessMessage(m.messageId, OTHER_ACCOUNT), undefined);
      assert.equal(await store.getBusinessMessage('wbm-none', OTHER_ACCOUNT), undefined);
      assert.equal((await store.getBusinessMessage(m.messageId, 'any'))?.accountId, ACCOUNT);
    });

    test('stores it as accepted, with an accepted event in its history', async (store) => {
      const m = business();
      assert.equal(await store.acceptBusinessMessage(m), undefined);
      const view = await store.getBusinessMessage(m.messageId, 'any');
      assert.ok(view);
      assert.deepEqual(
        { ...view, history: view.history.map((e) => ({ status: e.status, at: e.at })) },
        {
          messageId: m.messageId,
          accountId: m.accountId,
          businessPhone: m.businessPhone,
          to: m.to,
          type: m.type,
          content: m.content,
          route: m.route,
          status: 'accepted',
          attempts: 0,
          acceptedAt: m.acceptedAt,
          history: [{ status: 'accepted', at: m.acceptedAt }],
        },
      );
      assert.deepEqual(await states(store), { queued: 1, submitting: 0, submitted: 0, final: 0 });
    });

    test('getBusinessMessage of an unknown id answers nothing', async (store) => {
      assert.equal(await store.getBusinessMessage('wbm-missing', 'any'), undefined);
    });

    test('a second message with a key taken within 24 hours stores nothing and answers the first record', async (store) => {
      const first = business();
      const idem = idempotency();
      assert.equal(await store.acceptBusinessMessage(first, idem), undefined);
      const later = NOW + IDEMPOTENCY_WINDOW_MS;
      const twin = business({ acceptedAt: later });
      const twinIdem = idempotency({ response: 'second', createdAt: later });
      assert.deepEqual(await store.acceptBusinessMessage(twin, twinIdem), idem);
      assert.equal(await store.getBusinessMessage(twin.messageId, 'any'), undefined);
      assert.ok(await store.getBusinessMessage(first.messageId, 'any'));
      assert.deepEqual(await states(store), { queued: 1, submitting: 0, submitted: 0, final: 0 });
    });

    test('a key older than 24 hours can be used again; another account has its own keys', async (store) => {
      await store.acceptBusinessMessage(business(), idempotency());
      const later = NOW + IDEMPOTENCY_WINDOW_MS + 1;
      const again = business({ acceptedAt: later });
      const againIdem = idempotency({ response: 'second', createdAt: later });
      assert.equal(await store.acceptBusinessMessage(again, againIdem), undefined);
      const theirs = business({ accountId: OTHER_ACCOUNT, acceptedAt: later });
      const theirIdem = idempotency({ accountId: OTHER_ACCOUNT, createdAt: later });
      assert.equal(await store.acceptBusinessMessage(theirs, theirIdem), undefined);
      assert.ok(await store.getBusinessMessage(again.messageId, 'any'));
      assert.ok(await store.getBusinessMessage(theirs.messageId, 'any'));
      assert.deepEqual(await store.findIdempotency(ACCOUNT, 'key-1', later - DAY), againIdem);
    });

    test('is claimed like an SMS, carrying its message id, content, business phone and type', async (store) => {
      const m = business({ type: 'image', content: '{"link":"https://x/a.jpg"}' });
      await store.acceptBusinessMessage(m);
      const c = nth(await claimAll(store), 0);
      assert.equal(c.kind, 'business');
      assert.equal(c.messageId, m.messageId);
      assert.equal(c.accountId, m.accountId);
      assert.equal(c.body, m.content);
      assert.equal(c.businessPhone, m.businessPhone);
      assert.equal(c.type, 'image');
      assert.equal(c.e164, m.e164);
      assert.equal(c.route, m.route);
      assert.equal(c.attempts, 1);
      assert.equal((await store.getBusinessMessage(m.messageId, 'any'))?.attempts, 1);
    });
  });
}
