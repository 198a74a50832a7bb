import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { InboxEntry } from '../../domain/messages/message.js';
import type { Store } from '../../domain/ports.js';
import { NOW, SECOND, inboxEntry, nth, storeTest, type OpenStore } from './fixtures.js';

const ALICE = '+447700900001';
const BOB = '+447700900002';

/** The entry without its store-assigned id, to compare with what was delivered. */
function withoutId(e: InboxEntry): Omit<InboxEntry, 'id'> {
  const { id: _id, ...rest } = e;
  return rest;
}

/** Delivers one entry per message ref, to the given recipients in turn, a second apart. */
async function deliverAll(store: Store, recipients: readonly string[]): Promise<InboxEntry[]> {
  const out: InboxEntry[] = [];
  for (const [i, to] of recipients.entries()) {
    const e = inboxEntry({
      messageRef: i + 1,
      upstreamId: `sim-${i + 1}`,
      to,
      body: `message ${i + 1}`,
      deliveredAt: NOW + i * SECOND,
      reportDueAt: NOW + (10 - i) * SECOND,
    });
    out.push((await store.deliverToInbox(e)).entry);
  }
  return out;
}

const refs = (list: readonly InboxEntry[]): number[] => list.map((e) => e.messageRef);

export function inboxContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('simulator inbox', () => {
    test('deliverToInbox stores an entry under a new id', async (store) => {
      const e = inboxEntry({ kind: 'business', type: 'text', encoding: 'json' });
      const { entry, duplicate } = await store.deliverToInbox(e);
      assert.equal(duplicate, false);
      assert.equal(typeof entry.id, 'number');
      assert.deepEqual(withoutId(entry), e);
      assert.deepEqual(await store.listInbox({ limit: 10 }), [entry]);
    });

    test('a second delivery of the same message is a duplicate, counted on the first entry', async (store) => {
      const { entry: first } = await store.deliverToInbox(inboxEntry({ messageRef: 7 }));
      const resubmitted = inboxEntry({
        messageRef: 7,
        body: 'resubmitted',
        deliveredAt: NOW + 60 * SECOND,
        reportDueAt: NOW + 62 * SECOND,
        lastAttempt: 3,
      });
      const counted = { ...first, submissions: 2, lastAttempt: 3 };
      assert.deepEqual(await store.deliverToInbox(resubmitted), {
        entry: counted,
        duplicate: true,
      });
      assert.deepEqual(await store.listInbox({ limit: 10 }), [counted]);
      assert.deepEqual(await store.pendingInboxReports(), [counted]);
      const again = await store.deliverToInbox(inboxEntry({ messageRef: 7, lastAttempt: 2 }));
      assert.deepEqual(again.entry, { ...counted, submissions: 3 }, 'lastAttempt never goes back');
    });

    test('pendingInboxReports answers entries not yet reported, until marked reported', async (store) => {
      const [a, b, c] = await deliverAll(store, [ALICE, BOB, ALICE]);
      assert.ok(a?.id !== undefined && b?.id !== undefined && c?.id !== undefined);
      await store.deliverToInbox(inboxEntry({ messageRef: 99, reported: true }));
      assert.deepEqual(refs(await store.pendingInboxReports()).sort(), [1, 2, 3]);
      await store.markInboxReported([a.id, c.id]);
      assert.deepEqual(await store.pendingInboxReports(), [b]);
      await store.markInboxReported([]);
      await store.markInboxReported([b.id]);
      assert.deepEqual(await store.pendingInboxReports(), []);
      const listed = await store.listInbox({ limit: 10 });
      assert.equal(listed.length, 4);
      assert.ok(listed.every((e) => e.reported));
    });

    test('listInbox answers one recipient, newest first, at most `limit`', async (store) => {
      await deliverAll(store, [ALICE, BOB, ALICE, ALICE, BOB]);
      assert.deepEqual(refs(await store.listInbox({ phone: ALICE, limit: 10 })), [4, 3, 1]);
      assert.deepEqual(refs(await store.listInbox({ phone: ALICE, limit: 2 })), [4, 3]);
      assert.deepEqual(refs(await store.listInbox({ phone: BOB, limit: 10 })), [5, 2]);
      assert.deepEqual(await store.listInbox({ phone: '+10000000000', limit: 10 }), []);
    });

    test('listInbox without a phone answers everyone, newest first, at most `limit`', async (store) => {
      await deliverAll(store, [ALICE, BOB, ALICE]);
      assert.deepEqual(refs(await store.listInbox({ limit: 10 })), [3, 2, 1]);
      assert.deepEqual(refs(await store.listInbox({ limit: 1 })), [3]);
    });

    test('deliverManyToInbox answers each entry in order, recognising duplicates', async (store) => {
      const { entry: earlier } = await store.deliverToInbox(inboxEntry({ messageRef: 1 }));
      const batch = [
        inboxEntry({ messageRef: 2, upstreamId: 'sim-2', to: BOB }),
        inboxEntry({ messageRef: 1, body: 'again' }),
        inboxEntry({ messageRef: 3, upstreamId: 'sim-3' }),
        inboxEntry({ messageRef: 2, upstreamId: 'sim-2', body: 'twice in one call' }),
      ];
      const answers = await store.deliverManyToInbox(batch);
      assert.deepEqual(
        answers.map((a) => [a.entry.messageRef, a.duplicate]),
        [
          [2, false],
          [1, true],
          [3, false],
          [2, true],
        ],
      );
      assert.deepEqual(nth(answers, 1).entry, { ...earlier, submissions: 2 });
      assert.deepEqual(nth(answers, 3).entry, { ...nth(answers, 0).entry, submissions: 2 });
      assert.deepEqual(withoutId(nth(answers, 0).entry), nth(batch, 0));
      const listed = await store.listInbox({ limit: 10 });
      assert.deepEqual(listed.map((e) => [e.messageRef, e.submissions]).sort(), [
        [1, 2],
        [2, 2],
        [3, 1],
      ]);
      assert.deepEqual(await store.deliverManyToInbox([]), []);
    });
  });
}
