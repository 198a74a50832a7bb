import assert from 'node:assert/strict';
import { describe } from 'node:test';
import {
  ACCOUNT,
  LEASE,
  MINUTE,
  NOW,
  OTHER_ACCOUNT,
  ROUTE,
  SECOND,
  batch,
  business,
  claimAll,
  only,
  receiptOf,
  receiptsForSessions,
  receiptsOf,
  report,
  seconds,
  sms,
  states,
  storeTest,
  submitAll,
  submittedOne,
  type OpenStore,
} from './fixtures.js';

export function receiptsContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('receiptsForSessions', () => {
    test('answers each final message as a ReceiptPerPhone, Phone as the caller wrote it', async (store) => {
      const b = batch([
        sms({ phone: '+44 7700 900001', e164: '+447700900001', costCount: 3, userId: 'u-a' }),
        sms({ phone: '07700900002', e164: '+447700900002', costCount: 1, userId: 'u-b' }),
      ]);
      await store.acceptBatch(b);
      const [up1, up2] = await submitAll(store);
      assert.ok(up1 && up2);
      await store.applyReports(
        [
          report(up1, 'delivered', NOW + 61_999, { code: 'DELIVRD', desc: 'delivered' }),
          report(up2, 'failed', NOW + 62_000, { code: 'UNDELIV', desc: 'undeliverable' }),
        ],
        NOW + 63_000,
      );
      const receipts = (await receiptsOf(store, b.sessionNo)).sort((x, y) =>
        x.Phone.localeCompare(y.Phone),
      );
      assert.deepEqual(receipts, [
        {
          Phone: '+44 7700 900001',
          CostCount: 3,
          ReceiptResult: 'Success',
          ReceiptCode: 'DELIVRD',
          ReceiptDesc: 'delivered',
          ReceiptTime: seconds(NOW + 61_999),
          UserId: 'u-a',
        },
        {
          Phone: '07700900002',
          CostCount: 1,
          ReceiptResult: 'Fail',
          ReceiptCode: 'UNDELIV',
          ReceiptDesc: 'undeliverable',
          ReceiptTime: seconds(NOW + 62_000),
          UserId: 'u-b',
        },
      ]);
    });

    test('answers only messages in a final state', async (store) => {
      const b = batch([sms({ phone: 'a' }), sms({ phone: 'b' }), sms({ phone: 'c' })]);
      await store.acceptBatch(b);
      const [first, second] = await claimAll(store);
      assert.ok(first && second);
      await store.recordOutcomes(
        [
          {
            id: first.id,
            attempt: first.attempts,
            kind: 'submitted',
            route: ROUTE,
            upstream: '',
            upstreamId: 'U-a',
          },
          {
            id: second.id,
            attempt: second.attempts,
            kind: 'submitted',
            route: ROUTE,
            upstream: '',
            upstreamId: 'U-b',
          },
        ],
        NOW,
      );
      await store.applyReports([report('U-b', 'delivered', NOW + SECOND)], NOW + SECOND);
      assert.deepEqual(
        (await receiptsOf(store, b.sessionNo)).map((r) => r.Phone),
        ['b'],
      );
    });

    test("knows only the account's own sessions; unknown ones are absent", async (store) => {
      const mine = batch();
      const theirs = batch([sms()], { accountId: OTHER_ACCOUNT });
      await store.acceptBatch(mine);
      await store.acceptBatch(theirs);
      const ups = await submitAll(store);
      await store.applyReports(
        ups.map((u) => report(u, 'delivered', NOW)),
        NOW,
      );
      const asked = [mine.sessionNo, theirs.sessionNo, 'session-unknown'];
      assert.deepEqual(await store.accountSessions(ACCOUNT, asked), [mine.sessionNo]);
      assert.deepEqual(await store.accountSessions(OTHER_ACCOUNT, asked), [theirs.sessionNo]);
      assert.deepEqual(await store.accountSessions(ACCOUNT, []), []);
      assert.equal((await store.sessionReceipts(ACCOUNT, mine.sessionNo)).length, 1);
      assert.deepEqual(
        await store.sessionReceipts(ACCOUNT, theirs.sessionNo),
        [],
        "another account's session gives no receipts even when asked for by its number",
      );
    });

    test('lists sessions in the order asked, each once', async (store) => {
      const [a, b, c] = [batch(), batch(), batch()];
      for (const x of [a, b, c]) await store.acceptBatch(x);
      const asked = [c.sessionNo, a.sessionNo, c.sessionNo, 'unknown', b.sessionNo, a.sessionNo];
      assert.deepEqual(await store.accountSessions(ACCOUNT, asked), [
        c.sessionNo,
        a.sessionNo,
        b.sessionNo,
      ]);
    });

    test("gives a session's receipts oldest message first", async (store) => {
      const phones = ['p-1', 'p-2', 'p-3', 'p-4', 'p-5'];
      const b = batch(phones.map((phone) => sms({ phone })));
      await store.acceptBatch(b);
      const ups = await submitAll(store);
      // Reported newest first: the order of the receipts is the messages', not the reports'.
      await store.applyReports(
        ups.reverse().map((u) => report(u, 'delivered', NOW)),
        NOW,
      );
      const got = await store.sessionReceipts(ACCOUNT, b.sessionNo);
      assert.deepEqual(
        got.map((r) => r.Phone),
        phones,
      );
    });

    test('answers several sessions at once, each with its own receipts', async (store) => {
      const one = batch([sms({ phone: 'one' })]);
      const two = batch([sms({ phone: 'two-a' }), sms({ phone: 'two-b' })]);
      const idle = batch([sms({ phone: 'idle' })], { acceptedAt: NOW + MINUTE });
      for (const b of [one, two, idle]) await store.acceptBatch(b);
      const claimed = await claimAll(store);
      await store.recordOutcomes(
        claimed.map((m) => ({
          id: m.id,
          attempt: m.attempts,
          kind: 'failed',
          code: 'E',
          desc: 'refused',
        })),
        NOW,
      );
      const map = await receiptsForSessions(store, ACCOUNT, [
        one.sessionNo,
        two.sessionNo,
        idle.sessionNo,
      ]);
      const phones = (s: string) => (map.get(s) ?? []).map((r) => r.Phone).sort();
      assert.equal(map.size, 3);
      assert.deepEqual(phones(one.sessionNo), ['one']);
      assert.deepEqual(phones(two.sessionNo), ['two-a', 'two-b']);
      assert.deepEqual(map.get(idle.sessionNo), []);
    });
  });

  describe('expireAwaiting', () => {
    test('submitted messages sent at or before the cutoff become Unknow; others are untouched', async (store) => {
      const old = await submittedOne(store, NOW);
      const atCutoff = await submittedOne(store, NOW + MINUTE);
      const recent = await submittedOne(store, NOW + MINUTE + 1);
      const done = await submittedOne(store, NOW);
      await store.applyReports([report(done.upstreamId, 'delivered', NOW + SECOND)], NOW);
      const queued = batch([sms()], { acceptedAt: NOW + 2 * MINUTE });
      await store.acceptBatch(queued);
      await store.acceptBatch(batch([sms()], { acceptedAt: NOW + MINUTE }));
      only(await store.claimDue(NOW + MINUTE + 1, 10, LEASE)); // now submitting
      const before = await receiptOf(store, done.sessionNo);

      const now = NOW + 10 * MINUTE + 1_234;
      assert.equal(await store.expireAwaiting(NOW + MINUTE, now, 100), 2);
      for (const m of [old, atCutoff]) {
        const r = await receiptOf(store, m.sessionNo);
        assert.deepEqual([r.ReceiptResult, r.ReceiptTime], ['Unknow', seconds(now)]);
      }
      assert.deepEqual(await receiptsOf(store, recent.sessionNo), []);
      assert.deepEqual(await receiptsOf(store, queued.sessionNo), []);
      assert.deepEqual(await receiptOf(store, done.sessionNo), before);
      assert.deepEqual(await states(store), { queued: 1, submitting: 1, submitted: 1, final: 3 });
      assert.equal(await store.expireAwaiting(NOW + MINUTE, now, 100), 0);
    });

    test('expires at most `limit` per call', async (store) => {
      for (let i = 0; i < 3; i++) await submittedOne(store, NOW + i);
      assert.equal(await store.expireAwaiting(NOW + MINUTE, NOW + 2 * MINUTE, 2), 2);
      assert.equal(await store.expireAwaiting(NOW + MINUTE, NOW + 2 * MINUTE, 2), 1);
      assert.equal(await store.expireAwaiting(NOW + MINUTE, NOW + 2 * MINUTE, 2), 0);
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 3 });
    });

    test('a report arriving after the expiry changes nothing', async (store) => {
      const m = await submittedOne(store);
      await store.expireAwaiting(NOW, NOW + MINUTE, 10);
      const expired = await receiptOf(store, m.sessionNo);
      await store.applyReports([report(m.upstreamId, 'delivered', NOW + 2 * MINUTE)], NOW);
      assert.deepEqual(await receiptOf(store, m.sessionNo), expired);
    });

    test('a business message that never heard back shows status unknown', async (store) => {
      const m = business();
      await store.acceptBusinessMessage(m);
      const c = only(await store.claimDue(NOW, 10, LEASE));
      await store.recordOutcomes(
        [
          {
            id: c.id,
            attempt: c.attempts,
            kind: 'submitted',
            route: ROUTE,
            upstream: '',
            upstreamId: 'w',
          },
        ],
        NOW,
      );
      assert.equal(await store.expireAwaiting(NOW, NOW + MINUTE, 10), 1);
      assert.equal((await store.getBusinessMessage(m.messageId, 'any'))?.status, 'unknown');
    });
  });

  describe('countByState', () => {
    test('counts messages per state; an empty store counts none', async (store) => {
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 0 });
      await store.acceptBatch(batch([sms(), sms(), sms(), sms()]));
      const [a, b, c] = await claimAll(store);
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
          { id: b.id, attempt: b.attempts, kind: 'failed', code: 'E', desc: 'refused' },
          {
            id: c.id,
            attempt: c.attempts,
            kind: 'retry',
            dueAt: NOW + MINUTE,
            code: 'T',
            desc: 'later',
          },
        ],
        NOW,
      );
      assert.deepEqual(await states(store), { queued: 1, submitting: 1, submitted: 1, final: 1 });
      const counts = await store.countByState();
      assert.equal(
        Object.values(counts).reduce((x, y) => x + y, 0),
        4,
      );
    });
  });
}
