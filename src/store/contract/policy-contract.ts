import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { newEndpoint } from '../../domain/events/endpoint.js';
import { utcDay, type AccountPolicy } from '../../domain/accounts/policy.js';
import type { Store } from '../../domain/ports.js';
import {
  ACCOUNT,
  HOUR,
  LEASE,
  NOW,
  OTHER_ACCOUNT,
  SECOND,
  batch,
  business,
  claimAll,
  idempotency,
  sms,
  states,
  storeTest,
  type OpenStore,
} from './fixtures.js';

const TODAY = utcDay(NOW);
const US = sms({ phone: '+14155550101', e164: '+14155550101', country: 'US' });
const GB = sms({ country: 'GB' });

async function withPolicy(store: Store, p: Partial<AccountPolicy>, accountId = ACCOUNT) {
  await store.ensureAccount(accountId, NOW);
  await store.setAccountPolicy(accountId, { prepaid: false, ...p }, NOW);
}

/** The refusals' rules by place in the batch, as the store answered them. */
async function refusedOf(store: Store, b: ReturnType<typeof batch>) {
  const outcome = await store.acceptBatch(b);
  assert.ok('refused' in outcome);
  return outcome.refused.map((r) => [r.index, r.rule]);
}

async function ledgerSum(store: Store, accountId = ACCOUNT): Promise<number> {
  const rows = await store.creditLedger(accountId, { limit: 1000 });
  return rows.reduce((n, r) => n + r.costCount, 0);
}

/** Account policy: limits decided in acceptance's transaction, counters in the store. */
export function policyContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('account policy', () => {
    test('an account without a policy has no limits, no balance and sends anywhere', async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      assert.deepEqual(await store.accountPolicy(ACCOUNT, TODAY), {
        policy: { prepaid: false },
        balance: 0,
        usedToday: 0,
      });
      assert.deepEqual(await refusedOf(store, batch([US, GB])), []);
    });

    test('Countries refuses numbers of other countries and counts nothing for them', async (store) => {
      await withPolicy(store, { countries: ['GB'], dailyLimit: 10 });
      assert.deepEqual(await refusedOf(store, batch([US, GB, US])), [
        [0, 'countries'],
        [2, 'countries'],
      ]);
      assert.deepEqual((await store.accountPolicy(ACCOUNT, TODAY)).usedToday, 1);
      assert.equal((await states(store)).queued, 1);
      // A number of no country (a non-geographic code) is not in any list.
      assert.deepEqual(await refusedOf(store, batch([sms({ country: undefined })])), [
        [0, 'countries'],
      ]);
    });

    test('DailyLimit counts CostCount per UTC day; a refused message leaves room for a smaller one', async (store) => {
      await withPolicy(store, { dailyLimit: 3 });
      const costs = [2, 2, 1].map((costCount) => sms({ costCount }));
      assert.deepEqual(await refusedOf(store, batch(costs)), [[1, 'daily_limit']]);
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).usedToday, 3);
      const full = await store.acceptBatch(batch([sms()]));
      assert.ok('refused' in full);
      assert.match(full.refused[0]?.reason ?? '', /daily limit 3 reached/);
      assert.equal((await states(store)).queued, 2, 'a batch refused whole stores nothing');
      const tomorrow = batch([sms()], { acceptedAt: NOW + 24 * HOUR });
      assert.deepEqual(await refusedOf(store, tomorrow), []);
    });

    test('Prepaid debits at acceptance and never lets the balance below zero', async (store) => {
      await withPolicy(store, { prepaid: true });
      const added = await store.addCredit(ACCOUNT, { costCount: 5, reference: 'inv-1' }, NOW);
      assert.ok('added' in added);
      assert.equal(added.added.balance, 5);
      const b = batch([sms({ costCount: 3 }), sms({ costCount: 3 }), sms({ costCount: 2 })]);
      assert.deepEqual(await refusedOf(store, b), [[1, 'prepaid']]);
      const view = await store.accountPolicy(ACCOUNT, TODAY);
      assert.equal(view.balance, 0);
      assert.equal(await ledgerSum(store), 0, 'the balance is the sum of the ledger');
      const rows = await store.creditLedger(ACCOUNT, { limit: 10 });
      assert.deepEqual(
        rows.map((r) => [r.kind, r.costCount, r.reference]),
        [
          ['debit', -5, b.sessionNo],
          ['credit', 5, 'inv-1'],
        ],
      );
      assert.deepEqual(await refusedOf(store, batch([sms()])), [[0, 'prepaid']]);
    });

    test('a paid message that ends SubmitFail or is cancelled is credited back, once', async (store) => {
      await withPolicy(store, { prepaid: true });
      await store.addCredit(ACCOUNT, { costCount: 10, reference: 'top-up' }, NOW);
      const failing = batch([sms({ costCount: 2 })]);
      const held = batch([sms({ costCount: 3 }), sms({ costCount: 1 })], { dueAt: NOW + HOUR });
      await store.acceptBatch(failing);
      await store.acceptBatch(held);
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).balance, 4);
      const [claimed] = await claimAll(store);
      assert.ok(claimed);
      const failed = { kind: 'failed' as const, code: '0x45', desc: 'refused' };
      await store.recordOutcomes([{ id: claimed.id, attempt: claimed.attempts, ...failed }], NOW);
      assert.equal(await store.cancelQueued(ACCOUNT, held.sessionNo, undefined, NOW), 2);
      assert.equal(await store.cancelQueued(ACCOUNT, held.sessionNo, undefined, NOW), 0);
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).balance, 10);
      assert.equal(await ledgerSum(store), 10);
      const refunds = (await store.creditLedger(ACCOUNT, { limit: 10 })).filter(
        (r) => r.kind === 'refund',
      );
      assert.deepEqual(refunds.map((r) => r.costCount).sort(), [1, 2, 3]);
    });

    test('a paid message that expires is refunded once; the ledger and balance agree', async (store) => {
      await withPolicy(store, { prepaid: true });
      await store.addCredit(ACCOUNT, { costCount: 10, reference: 'top-up' }, NOW);
      const expiring = batch([sms({ costCount: 2 }), sms({ costCount: 1 })], {
        dueAt: NOW + HOUR,
        expiresAt: NOW + HOUR + 30 * SECOND,
      });
      await store.acceptBatch(expiring);
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).balance, 7);
      assert.equal(await store.expireQueued(NOW + HOUR, 10), 0, 'not yet');
      assert.equal(await store.expireQueued(NOW + 2 * HOUR, 10), 2);
      assert.equal(await store.expireQueued(NOW + 3 * HOUR, 10), 0, 'once');
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).balance, 10);
      assert.equal(await ledgerSum(store), 10);
      const refunds = (await store.creditLedger(ACCOUNT, { limit: 10 })).filter(
        (r) => r.kind === 'refund',
      );
      assert.deepEqual(refunds.map((r) => [r.costCount, r.reference]).sort(), [
        [1, expiring.sessionNo],
        [2, expiring.sessionNo],
      ]);
    });

    test('RecipientHourlyLimit counts messages to one number in any 60 minutes', async (store) => {
      await withPolicy(store, { recipientHourlyLimit: 2 });
      assert.deepEqual(await refusedOf(store, batch([GB, GB, GB, US])), [
        [2, 'recipient_hourly_limit'],
      ]);
      const later = (ms: number) => batch([GB], { acceptedAt: NOW + ms });
      assert.deepEqual(await refusedOf(store, later(HOUR - SECOND)), [
        [0, 'recipient_hourly_limit'],
      ]);
      assert.deepEqual(await refusedOf(store, later(HOUR)), []);
      assert.deepEqual(await refusedOf(store, later(HOUR + SECOND)), []);
      assert.deepEqual(await refusedOf(store, later(HOUR + 2 * SECOND)), [
        [0, 'recipient_hourly_limit'],
      ]);
    });

    test('RecipientHourlyLimit counts the SMS of the account to the number, whatever became of them', async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      await store.ensureAccount(OTHER_ACCOUNT, NOW);
      await store.acceptBatch(batch([GB, GB, GB], { accountId: OTHER_ACCOUNT }));
      await store.acceptBusinessMessage(business({ e164: GB.e164, to: GB.phone }));
      const held = batch([GB], { dueAt: NOW + HOUR });
      await store.acceptBatch(held);
      assert.equal(await store.cancelQueued(ACCOUNT, held.sessionNo, undefined, NOW), 1);
      await store.acceptBatch(batch([GB]));
      // Set after the sends: what the hour sent counts all the same.
      await withPolicy(store, { recipientHourlyLimit: 3 });
      assert.deepEqual(await refusedOf(store, batch([GB, GB])), [[1, 'recipient_hourly_limit']]);
      await withPolicy(store, { recipientHourlyLimit: 2 });
      assert.deepEqual(await refusedOf(store, batch([GB])), [[0, 'recipient_hourly_limit']]);
      const theirs = batch([GB], { accountId: OTHER_ACCOUNT });
      assert.deepEqual(await refusedOf(store, theirs), [], 'their sends are theirs');
    });

    test('MaxPerSecond spaces the due times of what it accepts, across batches', async (store) => {
      await withPolicy(store, { maxPerSecond: 2 });
      await store.acceptBatch(batch([GB, GB, GB]));
      await store.acceptBatch(batch([US]));
      const dueBy = async (at: number) => (await store.claimDue(at, 100, LEASE)).length;
      assert.equal(await dueBy(NOW), 1);
      assert.equal(await dueBy(NOW + 499), 0);
      assert.equal(await dueBy(NOW + 500), 1);
      assert.equal(await dueBy(NOW + 1000), 1);
      assert.equal(await dueBy(NOW + 1500), 1, 'the next batch waits its turn');
    });

    test('a policy set again without a field removes that limit; accounts are apart', async (store) => {
      await withPolicy(store, { dailyLimit: 1, countries: ['GB'] });
      await withPolicy(store, { countries: ['GB', 'US'] });
      const view = await store.accountPolicy(ACCOUNT, TODAY);
      assert.deepEqual(view.policy, { prepaid: false, countries: ['GB', 'US'] });
      assert.deepEqual(await refusedOf(store, batch([US, GB, GB])), []);
      await withPolicy(store, { countries: [] }, OTHER_ACCOUNT);
      const theirs = batch([GB], { accountId: OTHER_ACCOUNT });
      assert.deepEqual(await refusedOf(store, theirs), [[0, 'countries']]);
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).usedToday, 3);
    });

    test('the idempotency record answers with what the policy refused; a refused batch keeps no key', async (store) => {
      await withPolicy(store, { dailyLimit: 1 });
      const draft = {
        ...idempotency({ key: 'k1' }),
        response: (r: readonly unknown[]) => `refused ${r.length}`,
      };
      await store.acceptBatch(batch([GB, GB]), draft);
      assert.equal((await store.findIdempotency(ACCOUNT, 'k1', 0))?.response, 'refused 1');
      await store.acceptBatch(batch([GB]), { ...draft, key: 'k2' });
      assert.equal(await store.findIdempotency(ACCOUNT, 'k2', 0), undefined);
    });

    test('account.limit_reached is written once per rule and day, to subscribers', async (store) => {
      await withPolicy(store, { dailyLimit: 1 });
      const base = {
        endpointId: 'we-policy',
        accountId: ACCOUNT,
        url: 'https://hooks.example.com/in',
      };
      const e = newEndpoint({ ...base, secret: 'sealed', now: NOW });
      await store.insertEndpoint(e);
      await store.acceptBatch(batch([GB, GB]));
      await store.acceptBatch(batch([GB]));
      await store.acceptBatch(batch([GB], { acceptedAt: NOW + 24 * HOUR }));
      await store.acceptBatch(batch([GB, GB], { acceptedAt: NOW + 24 * HOUR }));
      const got = await store.claimDeliveries(e.endpointId, NOW + 25 * HOUR, 100, NOW + 26 * HOUR);
      const bodies = got.map(
        (d) => JSON.parse(d.body) as { type: string; data: Record<string, unknown> },
      );
      assert.deepEqual(
        bodies.map((b) => [b.type, b.data.Rule, b.data.Limit, b.data.Day]),
        [
          ['account.limit_reached', 'DailyLimit', 1, '2027-01-15'],
          ['account.limit_reached', 'DailyLimit', 1, '2027-01-16'],
        ],
      );
    });
  });

  describe('credit, never twice', () => {
    const credit = { costCount: 7, reference: 'same-ref' };

    test('a Reference credited before is refused with its entry, unless repeated', async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      const first = await store.addCredit(ACCOUNT, credit, NOW);
      assert.ok('added' in first);
      const again = await store.addCredit(ACCOUNT, credit, NOW + SECOND);
      assert.deepEqual(again, { earlier: first.added.entry });
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).balance, 7);
      const other = await store.addCredit(OTHER_ACCOUNT, credit, NOW);
      assert.ok('added' in other, "another account's Reference is its own");
      const repeated = await store.addCredit(ACCOUNT, { ...credit, repeatReference: true }, NOW);
      assert.ok('added' in repeated);
      assert.equal(repeated.added.balance, 14);
      assert.equal(await ledgerSum(store), 14);
    });

    test('an idempotency key answers its first answer and adds nothing again', async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      const idempotency = {
        accountId: ACCOUNT,
        key: 'credit k-1',
        requestHash: 'h1',
        createdAt: NOW,
        answer: (a: { balance: number }) => JSON.stringify({ Balance: a.balance }),
      };
      const c = { ...credit, repeatReference: true, idempotency };
      const first = await store.addCredit(ACCOUNT, c, NOW);
      assert.ok('added' in first);
      const retried = await store.addCredit(ACCOUNT, c, NOW + HOUR);
      assert.ok('replayed' in retried);
      assert.deepEqual(
        [retried.replayed.response, retried.replayed.requestHash],
        ['{"Balance":7}', 'h1'],
      );
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).balance, 7);
      const later = await store.addCredit(ACCOUNT, c, NOW + 25 * HOUR);
      assert.ok('added' in later, 'a key past its 24 hours is a new request');
      assert.equal(later.added.balance, 14);
    });
  });

  describe('replacing the text of a held message (replace_sm)', () => {
    const longer = (n: number) => ({
      receiptTo: null,
      text: { body: 'x'.repeat(n), costCount: 2 },
    });

    test('a longer text is debited and counted; a cancel refunds what was paid', async (store) => {
      await withPolicy(store, { prepaid: true, dailyLimit: 100 });
      await store.addCredit(ACCOUNT, { costCount: 3, reference: 'top-up' }, NOW);
      for (let cycle = 0; cycle < 4; cycle++) {
        const held = batch([sms({ costCount: 1 })], { dueAt: NOW + HOUR });
        await store.acceptBatch(held);
        const done = await store.replaceQueued(ACCOUNT, held.sessionNo, longer(254), NOW);
        assert.deepEqual(done, { replaced: 1 });
        assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).balance, 1, 'paid the part');
        assert.equal(await store.cancelQueued(ACCOUNT, held.sessionNo, undefined, NOW), 1);
        assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).balance, 3, `cycle ${cycle}`);
      }
      assert.equal(await ledgerSum(store), 3, 'the balance is the sum of the ledger');
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).usedToday, 8, 'both parts, 4×');
    });

    test('refused whole when the balance cannot pay for it; the message is kept', async (store) => {
      await withPolicy(store, { prepaid: true });
      await store.addCredit(ACCOUNT, { costCount: 1, reference: 'top-up' }, NOW);
      const held = batch([sms({ costCount: 1 })], { dueAt: NOW + HOUR });
      await store.acceptBatch(held);
      const done = await store.replaceQueued(ACCOUNT, held.sessionNo, longer(254), NOW);
      assert.ok('refused' in done);
      assert.equal(done.refused.rule, 'prepaid');
      assert.match(done.refused.reason, /0 CostCount left; the new text needs 1 more/);
      const [claimed] = await store.claimDue(NOW + HOUR, 10, LEASE);
      assert.equal(claimed?.body, 'Your code is 1234');
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).balance, 0);
    });

    test('refused past DailyLimit, which keeps counting what was sent', async (store) => {
      await withPolicy(store, { dailyLimit: 2 });
      const held = batch([sms({ costCount: 1 }), sms({ costCount: 1 })], { dueAt: NOW + HOUR });
      await store.acceptBatch(held);
      const done = await store.replaceQueued(ACCOUNT, held.sessionNo, longer(254), NOW);
      assert.ok('refused' in done);
      assert.equal(done.refused.rule, 'daily_limit');
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).usedToday, 2);
      const claimed = await store.claimDue(NOW + HOUR, 10, LEASE);
      assert.deepEqual(
        claimed.map((m) => m.body),
        ['Your code is 1234', 'Your code is 1234'],
      );
    });

    test('a shorter text gives back the difference; an unpaid session is not charged', async (store) => {
      await withPolicy(store, { prepaid: true });
      await store.addCredit(ACCOUNT, { costCount: 5, reference: 'top-up' }, NOW);
      const held = batch([sms({ costCount: 3 })], { dueAt: NOW + HOUR });
      await store.acceptBatch(held);
      const shorter = { receiptTo: null, text: { body: 'short', costCount: 1 } };
      assert.deepEqual(await store.replaceQueued(ACCOUNT, held.sessionNo, shorter, NOW), {
        replaced: 1,
      });
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).balance, 4);
      await store.cancelQueued(ACCOUNT, held.sessionNo, undefined, NOW);
      assert.equal((await store.accountPolicy(ACCOUNT, TODAY)).balance, 5);
      await withPolicy(store, { prepaid: false }, OTHER_ACCOUNT);
      const unpaid = batch([sms({ costCount: 1 })], {
        dueAt: NOW + HOUR,
        accountId: OTHER_ACCOUNT,
      });
      await store.acceptBatch(unpaid);
      await withPolicy(store, { prepaid: true }, OTHER_ACCOUNT);
      const grown = await store.replaceQueued(OTHER_ACCOUNT, unpaid.sessionNo, longer(254), NOW);
      assert.deepEqual(grown, { replaced: 1 });
      await store.cancelQueued(OTHER_ACCOUNT, unpaid.sessionNo, undefined, NOW);
      assert.equal((await store.accountPolicy(OTHER_ACCOUNT, TODAY)).balance, 0, 'no refund');
      assert.equal(await ledgerSum(store, OTHER_ACCOUNT), 0);
    });
  });
}
