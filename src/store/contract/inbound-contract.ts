import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { MISSING_PART, type ArrivedMessage } from '../../domain/inbound/inbound.js';
import type { Store } from '../../domain/ports.js';
import {
  ACCOUNT,
  NOW,
  OTHER_ACCOUNT,
  SECOND,
  batch,
  business,
  sms,
  storeTest,
  type OpenStore,
} from './fixtures.js';

const NUMBER = '10690001';
const CUSTOMER = '+447700900123';
const BUSINESS_PHONE = '+15550001111';

let ids = 0;
const inboundId = () => `in_test${++ids}`;

function arrived(overrides: Partial<ArrivedMessage> = {}): ArrivedMessage {
  return {
    channel: 'sms',
    from: CUSTOMER,
    to: NUMBER,
    type: 'text',
    body: 'YES please',
    dedupeKey: `smsc:${++ids}`,
    complete: true,
    receivedAt: NOW,
    ...overrides,
  };
}

async function registerSms(store: Store, accountId = ACCOUNT, number = NUMBER): Promise<void> {
  await store.ensureAccount(accountId, NOW);
  await store.addBusinessPhone({
    accountId,
    businessPhone: number,
    channel: 'sms',
    createdAt: NOW,
  });
}

export function inboundContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('inbound messages', () => {
    test('go to the account that registered the number, with the latest SMS it sent there', async (store) => {
      await registerSms(store);
      const first = batch([sms()]);
      const second = batch([sms()], { acceptedAt: NOW + SECOND });
      await store.acceptBatch(first);
      await store.acceptBatch(second);
      await store.acceptBatch(batch([sms({ e164: '+447700900999' })]));
      const { message, stored } = await store.storeInbound(arrived(), 'in_a');
      assert.equal(stored, true);
      assert.equal(message.accountId, ACCOUNT);
      assert.deepEqual(message.replyTo, { sessionNo: second.sessionNo });
      assert.deepEqual(
        [message.inboundId, message.from, message.to, message.body, message.complete],
        ['in_a', CUSTOMER, NUMBER, 'YES please', true],
      );
    });

    test('a WhatsApp message links to the latest business message from that business phone', async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      await store.addBusinessPhone({
        accountId: ACCOUNT,
        businessPhone: BUSINESS_PHONE,
        channel: 'simulator',
        createdAt: NOW,
      });
      const sent = business({ e164: CUSTOMER });
      await store.acceptBusinessMessage(sent);
      await store.acceptBusinessMessage(
        business({ e164: CUSTOMER, businessPhone: '+15550002222' }),
      );
      const m = arrived({ channel: 'whatsapp', to: BUSINESS_PHONE, dedupeKey: 'wamid.1' });
      const { message } = await store.storeInbound(m, inboundId());
      assert.equal(message.accountId, ACCOUNT);
      assert.deepEqual(message.replyTo, { messageId: sent.messageId });
    });

    test('a re-delivery (same channel and dedupe key) is stored once', async (store) => {
      await registerSms(store);
      const m = arrived({ dedupeKey: 'smsc:42' });
      const first = await store.storeInbound(m, 'in_first');
      const again = await store.storeInbound({ ...m, receivedAt: NOW + SECOND }, 'in_again');
      assert.equal(again.stored, false);
      assert.equal(again.message.inboundId, 'in_first');
      assert.equal(again.message.seq, first.message.seq);
      const other = await store.storeInbound({ ...m, channel: 'whatsapp' }, 'in_other');
      assert.equal(other.stored, true, 'the same key on another channel is another message');
      const page = await store.listInbound({ accountId: ACCOUNT, limit: 10 });
      assert.deepEqual(
        page.messages.map((x) => x.inboundId),
        ['in_first'],
      );
    });

    test('to an unregistered number they are kept unrouted, never shown to an account', async (store) => {
      await registerSms(store, OTHER_ACCOUNT, '10690002');
      const { message } = await store.storeInbound(arrived({ to: '10690009' }), 'in_lost');
      assert.equal(message.accountId, undefined);
      assert.equal(message.replyTo, undefined);
      const unrouted = await store.listInbound({ accountId: null, limit: 10 });
      assert.deepEqual(
        unrouted.messages.map((x) => x.inboundId),
        ['in_lost'],
      );
      assert.deepEqual(
        (await store.listInbound({ accountId: OTHER_ACCOUNT, limit: 10 })).messages,
        [],
      );
      await store.storeInbound(arrived({ to: '10690002' }), 'in_routed');
      const all = await store.listInbound({ accountId: undefined, limit: 10 });
      assert.deepEqual(
        all.messages.map((x) => x.inboundId),
        ['in_routed', 'in_lost'],
        'the admin sees every account’s and the unrouted',
      );
    });

    test('one account never sees another account’s', async (store) => {
      await registerSms(store, ACCOUNT, '10690001');
      await registerSms(store, OTHER_ACCOUNT, '10690002');
      await store.storeInbound(arrived({ to: '10690001' }), 'in_mine');
      await store.storeInbound(arrived({ to: '10690002' }), 'in_theirs');
      const mine = await store.listInbound({ accountId: ACCOUNT, limit: 10 });
      assert.deepEqual(
        mine.messages.map((x) => x.inboundId),
        ['in_mine'],
      );
      assert.equal(await store.numberOwner('sms', '10690002'), OTHER_ACCOUNT);
      assert.equal(await store.numberOwner('sms', '10690003'), undefined);
      assert.equal(await store.numberOwner('whatsapp', '10690002'), undefined);
    });

    test('page newest first by cursor, and filter by phone, number, channel and time', async (store) => {
      await registerSms(store);
      await registerSms(store, ACCOUNT, '10690005');
      for (let i = 0; i < 5; i++) {
        await store.storeInbound(
          arrived({ receivedAt: NOW + i * SECOND, from: i % 2 ? '+447700900001' : CUSTOMER }),
          `in_p${i}`,
        );
      }
      await store.storeInbound(arrived({ to: '10690005', receivedAt: NOW + 9 * SECOND }), 'in_n');
      const first = await store.listInbound({ accountId: ACCOUNT, limit: 4 });
      assert.deepEqual(
        first.messages.map((x) => x.inboundId),
        ['in_n', 'in_p4', 'in_p3', 'in_p2'],
      );
      const second = await store.listInbound({
        accountId: ACCOUNT,
        limit: 4,
        before: first.nextCursor,
      });
      assert.deepEqual(
        second.messages.map((x) => x.inboundId),
        ['in_p1', 'in_p0'],
      );
      assert.equal(second.nextCursor, undefined);
      const ids = async (f: object) =>
        (await store.listInbound({ accountId: ACCOUNT, limit: 10, ...f })).messages.map(
          (x) => x.inboundId,
        );
      assert.deepEqual(await ids({ phone: '+447700900001' }), ['in_p3', 'in_p1']);
      assert.deepEqual(await ids({ number: '10690005' }), ['in_n']);
      assert.deepEqual(await ids({ channel: 'whatsapp' }), []);
      assert.deepEqual(await ids({ since: NOW + 2 * SECOND, until: NOW + 4 * SECOND }), [
        'in_p3',
        'in_p2',
      ]);
    });

    test('parts of a concatenated reply, out of order and one twice, make one message', async (store) => {
      await registerSms(store);
      const part = (partNo: number, text: string, at = NOW) => ({
        groupKey: 'smpp:test:+447700900123:10690001:42:3',
        partNo,
        total: 3,
        text,
        arrived: {
          channel: 'sms' as const,
          from: CUSTOMER,
          to: NUMBER,
          type: 'text',
          receivedAt: at,
        },
      });
      assert.equal(await store.storeInboundPart(part(3, 'three'), 'in_x1'), undefined);
      assert.equal(await store.storeInboundPart(part(1, 'one '), 'in_x2'), undefined);
      assert.equal(await store.storeInboundPart(part(1, 'one '), 'in_x3'), undefined, 'a repeat');
      const done = await store.storeInboundPart(part(2, 'two ', NOW + SECOND), 'in_whole');
      assert.deepEqual(
        [done?.stored, done?.message.body, done?.message.complete, done?.message.receivedAt],
        [true, 'one two three', true, NOW],
      );
      assert.equal(done?.message.accountId, ACCOUNT);
      // The SMSC delivers the whole message again soon after: recognised, stored once.
      await store.storeInboundPart(part(1, 'one '), 'in_y1');
      await store.storeInboundPart(part(2, 'two '), 'in_y2');
      const again = await store.storeInboundPart(part(3, 'three'), 'in_y3');
      assert.deepEqual([again?.stored, again?.message.inboundId], [false, 'in_whole']);
      assert.equal(await store.flushInboundParts(NOW + 60 * SECOND, () => 'in_none'), 0);
    });

    test('a message whose parts stop coming is stored after the wait, marked incomplete', async (store) => {
      await registerSms(store);
      const arrived = { channel: 'sms' as const, from: CUSTOMER, to: NUMBER, type: 'text' };
      const groupKey = 'smpp:test:+447700900123:10690001:7:3';
      await store.storeInboundPart(
        { groupKey, partNo: 1, total: 3, text: 'first ', arrived: { ...arrived, receivedAt: NOW } },
        'in_p1',
      );
      await store.storeInboundPart(
        { groupKey, partNo: 3, total: 3, text: ' last', arrived: { ...arrived, receivedAt: NOW } },
        'in_p3',
      );
      assert.equal(await store.flushInboundParts(NOW - 1, () => 'in_early'), 0, 'not yet');
      assert.equal(await store.flushInboundParts(NOW, () => 'in_cut'), 1);
      const [m] = (await store.listInbound({ accountId: ACCOUNT, limit: 10 })).messages;
      assert.deepEqual(
        [m?.inboundId, m?.body, m?.complete],
        ['in_cut', `first ${MISSING_PART} last`, false],
      );
      assert.equal(await store.flushInboundParts(NOW + 60 * SECOND, () => 'in_again'), 0);
    });
  });
}
