import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { ClaimedMessage } from '../../domain/messages/message.js';
import type { Store } from '../../domain/ports.js';
import {
  ACCOUNT,
  LEASE,
  NOW,
  OTHER_ACCOUNT,
  HOUR,
  SECOND,
  batch,
  byId,
  claimAll,
  inboxEntry,
  only,
  report,
  sms,
  storeTest,
  type OpenStore,
} from './fixtures.js';

const ALICE = '+447700900001';
const BOB = '+447700900002';
const CAROL = '+447700900003';

/** Accepts one message per recipient (account, number, text), claims them and delivers each. */
async function delivered(
  store: Store,
  list: readonly [number, string, string][],
  reported = true,
): Promise<ClaimedMessage[]> {
  for (const [accountId, e164, text] of list)
    await store.acceptBatch(batch([sms({ e164, phone: e164, text })], { accountId }));
  const claimed = await claimAll(store);
  for (const m of claimed) {
    await store.deliverToInbox(
      inboxEntry({
        messageRef: m.id,
        upstreamId: `sim-${m.id}`,
        to: m.e164,
        body: m.body,
        reported,
      }),
    );
  }
  return claimed;
}

const bodies = (list: readonly { body: string }[]) => list.map((e) => e.body);

export function viewsContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('operator views: inbox', () => {
    test('searchInbox answers entries newest first with their account, scoped when asked', async (store) => {
      await delivered(store, [
        [ACCOUNT, ALICE, 'one'],
        [OTHER_ACCOUNT, BOB, 'two'],
        [ACCOUNT, BOB, 'three'],
      ]);
      const all = await store.searchInbox({ limit: 10 });
      assert.deepEqual(bodies(all), ['three', 'two', 'one']);
      assert.deepEqual(
        all.map((e) => e.accountId),
        [ACCOUNT, OTHER_ACCOUNT, ACCOUNT],
      );
      assert.deepEqual(bodies(await store.searchInbox({ accountId: ACCOUNT, limit: 10 })), [
        'three',
        'one',
      ]);
      assert.deepEqual(bodies(await store.searchInbox({ phone: BOB, limit: 10 })), [
        'three',
        'two',
      ]);
      assert.deepEqual(bodies(await store.searchInbox({ limit: 1 })), ['three']);
      const ids = [nthId(all, 0), nthId(all, 2)];
      assert.deepEqual(bodies(await store.searchInbox({ ids, limit: 10 })), ['three', 'one']);
      assert.deepEqual(await store.searchInbox({ ids: [], limit: 10 }), []);
    });

    test('searchInbox finds a substring of the number or the body, wildcards taken literally', async (store) => {
      await delivered(store, [
        [ACCOUNT, ALICE, 'your code is 100%'],
        [ACCOUNT, BOB, 'your code is 1000'],
      ]);
      assert.deepEqual(bodies(await store.searchInbox({ query: '100%', limit: 10 })), [
        'your code is 100%',
      ]);
      assert.deepEqual(bodies(await store.searchInbox({ query: '900002', limit: 10 })), [
        'your code is 1000',
      ]);
      assert.equal((await store.searchInbox({ query: 'code_is', limit: 10 })).length, 0);
      assert.equal((await store.searchInbox({ query: 'code is', limit: 10 })).length, 2);
      // As SQLite's LIKE does for ASCII letters.
      assert.equal((await store.searchInbox({ query: 'Your CODE', limit: 10 })).length, 2);
    });

    test('searchInbox carries the receipt once the message is final', async (store) => {
      const [m] = await delivered(store, [[ACCOUNT, ALICE, 'hi']]);
      assert.ok(m);
      const before = only(await store.searchInbox({ limit: 10 }));
      assert.deepEqual(
        [before.receiptResult, before.receiptTime, before.acceptedAt],
        [undefined, undefined, NOW],
      );
      await store.recordOutcomes(
        [
          {
            id: m.id,
            attempt: m.attempts,
            kind: 'submitted',
            route: m.route,
            upstream: '',
            upstreamId: 'up-1',
          },
        ],
        NOW,
      );
      await store.applyReports([report('up-1', 'delivered', NOW + 5 * SECOND)], NOW + 5 * SECOND);
      const after = only(await store.searchInbox({ limit: 10 }));
      assert.deepEqual(
        [after.receiptResult, after.receiptTime],
        ['Success', (NOW + 5 * SECOND) / 1000],
      );
    });

    test('inboxConversations answers one per number, most recent first, scoped when asked', async (store) => {
      await delivered(store, [
        [ACCOUNT, ALICE, 'a1'],
        [ACCOUNT, BOB, 'b1'],
        [OTHER_ACCOUNT, BOB, 'b2'],
        [ACCOUNT, ALICE, 'a2'],
      ]);
      const all = await store.inboxConversations({ limit: 10 });
      assert.deepEqual(
        all.map((c) => [c.phone, c.count]),
        [
          [ALICE, 2],
          [BOB, 2],
        ],
      );
      const mine = await store.inboxConversations({ accountId: OTHER_ACCOUNT, limit: 10 });
      assert.deepEqual(
        mine.map((c) => [c.phone, c.count]),
        [[BOB, 1]],
      );
      assert.deepEqual(
        (await store.inboxConversations({ query: 'b', limit: 10 })).map((c) => c.phone),
        [BOB],
      );
      assert.equal((await store.inboxConversations({ limit: 1 })).length, 1);
    });

    test('inboxConversations pages by the newest entry: before a lastId, never twice', async (store) => {
      await delivered(store, [
        [ACCOUNT, ALICE, 'a1'],
        [ACCOUNT, BOB, 'b1'],
        [ACCOUNT, CAROL, 'c1'],
        [ACCOUNT, ALICE, 'a2'],
      ]);
      const first = await store.inboxConversations({ limit: 2 });
      assert.deepEqual(
        first.map((c) => c.phone),
        [ALICE, CAROL],
      );
      const before = first.at(-1)?.lastId;
      const second = await store.inboxConversations({ limit: 2, before });
      assert.deepEqual(
        second.map((c) => [c.phone, c.count]),
        [[BOB, 1]],
      );
      assert.deepEqual(await store.inboxConversations({ limit: 2, before: second[0]?.lastId }), []);
    });

    test('clearInbox removes reported entries only, of one account when asked', async (store) => {
      await delivered(store, [
        [ACCOUNT, ALICE, 'mine'],
        [OTHER_ACCOUNT, BOB, 'theirs'],
      ]);
      await delivered(store, [[ACCOUNT, BOB, 'report still due']], false);
      assert.equal(await store.clearInbox(ACCOUNT), 1);
      assert.deepEqual(bodies(await store.searchInbox({ limit: 10 })), [
        'report still due',
        'theirs',
      ]);
      assert.equal((await store.pendingInboxReports()).length, 1);
      assert.equal(await store.clearInbox(), 1);
      assert.deepEqual(bodies(await store.searchInbox({ limit: 10 })), ['report still due']);
    });
  });

  describe('operator views: queue and sessions', () => {
    test('queueStats counts queued and claimed messages, dates the oldest due one, counts held ones', async (store) => {
      assert.deepEqual(await store.queueStats(NOW), { depth: 0, oldestDueAt: undefined, held: 0 });
      await store.acceptBatch(batch([sms(), sms()], { acceptedAt: NOW }));
      await store.acceptBatch(batch([sms()], { acceptedAt: NOW + SECOND }));
      assert.deepEqual(await store.queueStats(NOW + 2 * SECOND), {
        depth: 3,
        oldestDueAt: NOW,
        held: 0,
      });
      // Before they were due, never tried: held.
      assert.deepEqual(await store.queueStats(NOW - 1), {
        depth: 3,
        oldestDueAt: undefined,
        held: 3,
      });
      const claimed = (await store.claimDue(NOW, 2, LEASE)).sort(byId);
      // Claimed messages are still in the queue, due again only when their lease expires.
      assert.deepEqual(await store.queueStats(NOW + 2 * SECOND), {
        depth: 3,
        oldestDueAt: NOW + SECOND,
        held: 0,
      });
      await store.recordOutcomes(
        claimed.map((m) => ({
          id: m.id,
          attempt: m.attempts,
          kind: 'submitted',
          route: m.route,
          upstream: '',
          upstreamId: `u${m.id}`,
        })),
        NOW,
      );
      assert.deepEqual(await store.queueStats(NOW + 2 * SECOND), {
        depth: 1,
        oldestDueAt: NOW + SECOND,
        held: 0,
      });
      // Scheduled for later (SendAt): held until then.
      await store.acceptBatch(batch([sms()], { acceptedAt: NOW, dueAt: NOW + HOUR }));
      assert.equal((await store.queueStats(NOW + 2 * SECOND)).held, 1);
      assert.equal((await store.queueStats(NOW + HOUR)).held, 0);
    });

    test('sessionView answers a session with its messages, to its own account only', async (store) => {
      const b = batch(
        [
          sms({ phone: '+447700900001', e164: ALICE, text: 'first', userId: 'u1' }),
          sms({ text: 'second' }),
        ],
        { acceptedAt: NOW },
      );
      await store.acceptBatch(b);
      const [first] = await claimAll(store);
      assert.ok(first);
      await store.recordOutcomes(
        [{ id: first.id, attempt: 1, kind: 'failed', code: 'REJECTD', desc: 'refused' }],
        NOW + SECOND,
      );
      const view = await store.sessionView(b.sessionNo, ACCOUNT, 10);
      assert.ok(view);
      assert.deepEqual(
        [view.sessionNo, view.accountId, view.acceptedCount, view.createdAt],
        [b.sessionNo, ACCOUNT, 2, NOW],
      );
      const [m1, m2] = view.messages;
      assert.ok(m1 && m2);
      assert.deepEqual(
        [m1.phone, m1.text, m1.state, m1.attempts, m1.receiptResult, m1.receiptCode, m1.userId],
        ['+447700900001', 'first', 'final', 1, 'SubmitFail', 'REJECTD', 'u1'],
      );
      assert.deepEqual(
        [m2.text, m2.state, m2.receiptResult, m2.costCount],
        ['second', 'submitting', undefined, 1],
      );
      assert.deepEqual(view.results, { Success: 0, Fail: 0, SubmitFail: 1, Unknow: 0, pending: 1 });
      assert.equal((await store.sessionView(b.sessionNo, undefined, 1))?.messages.length, 1);
      assert.equal(await store.sessionView(b.sessionNo, OTHER_ACCOUNT, 10), undefined);
      assert.equal(await store.sessionView('no-such-session', undefined, 10), undefined);
    });

    test('recentSessions lists the newest first, one account or all, with results so far', async (store) => {
      const old = batch([sms(), sms()], { acceptedAt: NOW });
      const mid = batch([sms()], { acceptedAt: NOW + SECOND, accountId: OTHER_ACCOUNT });
      const fresh = batch([sms()], { acceptedAt: NOW + 2 * SECOND });
      for (const b of [old, mid, fresh]) await store.acceptBatch(b);
      const all = await store.recentSessions({ limit: 10 });
      assert.deepEqual(
        all.map((s) => s.sessionNo),
        [fresh.sessionNo, mid.sessionNo, old.sessionNo],
      );
      const mine = await store.recentSessions({ accountId: ACCOUNT, limit: 1 });
      assert.deepEqual(
        mine.map((s) => [
          s.sessionNo,
          s.accountId,
          s.acceptedCount,
          s.createdAt,
          s.results.pending,
        ]),
        [[fresh.sessionNo, ACCOUNT, 1, NOW + 2 * SECOND, 1]],
      );
      const oldest = (await store.recentSessions({ accountId: ACCOUNT, limit: 5 }))[1];
      assert.deepEqual(oldest?.results, {
        Success: 0,
        Fail: 0,
        SubmitFail: 0,
        Unknow: 0,
        pending: 2,
      });
    });
  });
}

function nthId(list: readonly { id: number }[], i: number): number {
  const e = list[i];
  assert.ok(e);
  return e.id;
}
