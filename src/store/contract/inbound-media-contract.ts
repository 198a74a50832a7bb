import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { ArrivedMessage } from '../../domain/inbound/inbound.js';
import { UNROUTED_MEDIA } from '../../domain/inbound/inbound-media.js';
import type { Store } from '../../domain/ports.js';
import { endpoint } from './outbox-contract.js';
import {
  ACCOUNT,
  LEASE,
  NOW,
  OTHER_ACCOUNT,
  SECOND,
  mediaFile,
  storeTest,
  unique,
  type OpenStore,
} from './fixtures.js';

const BUSINESS_PHONE = '+15550002222';
const CUSTOMER = '+447700900555';

function photo(overrides: Partial<ArrivedMessage> = {}): ArrivedMessage {
  return {
    channel: 'whatsapp',
    from: CUSTOMER,
    to: BUSINESS_PHONE,
    type: 'image',
    body: JSON.stringify({ type: 'image', image: { id: '7001' } }),
    dedupeKey: unique('wamid'),
    complete: true,
    receivedAt: NOW,
    media: { ref: '7001', fileName: 'receipt.png' },
    ...overrides,
  };
}

/** The account's WhatsApp number and an endpoint subscribed to its inbound messages. */
async function owned(store: Store, accountId = ACCOUNT) {
  await store.ensureAccount(accountId, NOW);
  await store.addBusinessPhone({
    accountId,
    businessPhone: BUSINESS_PHONE,
    channel: 'whatsapp',
    phoneNumberId: '1234',
    accessToken: 'token',
    createdAt: NOW,
  });
  const e = endpoint({ accountId, eventTypes: ['message.inbound'] });
  await store.insertEndpoint(e);
  return e;
}

const inboundEvents = async (store: Store, endpointId: string) =>
  (await store.claimDeliveries(endpointId, NOW + 10 * LEASE, 100, NOW + 20 * LEASE)).map(
    (d) => JSON.parse(d.body) as { type: string; data: Record<string, unknown> },
  );

export function inboundMediaContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('inbound media: the queue that fetches the files of inbound messages', () => {
    test('a file is pending, claimed under a lease, and announced only once stored', async (store) => {
      const e = await owned(store);
      const { message } = await store.storeInbound(photo(), 'in_m1');
      assert.equal(message.media?.state, 'pending');
      assert.deepEqual(await inboundEvents(store, e.endpointId), [], 'no event while pending');
      const [claimed, ...rest] = await store.claimInboundMedia(NOW, NOW + LEASE, 10);
      assert.deepEqual(rest, []);
      assert.deepEqual(claimed, {
        inboundId: 'in_m1',
        accountId: ACCOUNT,
        to: BUSINESS_PHONE,
        ref: '7001',
        fileName: 'receipt.png',
        attempts: 1,
      });
      assert.deepEqual(await store.claimInboundMedia(NOW + 1, NOW + LEASE, 10), [], 'leased');
      const again = await store.claimInboundMedia(NOW + LEASE, NOW + 2 * LEASE, 10);
      assert.equal(again[0]?.attempts, 2, 'a lease that ran out gives it back, counted');

      const file = mediaFile({ fileName: 'receipt.png' });
      const url = `https://gw.example/media/${file.mediaId}`;
      assert.equal(
        await store.settleInboundMedia('in_m1', { state: 'stored', file, url }, NOW),
        true,
      );
      assert.equal(
        await store.settleInboundMedia('in_m1', { state: 'failed', error: 'late' }, NOW),
        false,
        'settled once',
      );
      const stored = await store.getMediaFile(ACCOUNT, file.mediaId);
      assert.deepEqual(Buffer.from(stored?.bytes ?? []), file.bytes);
      assert.equal(await store.getMediaFile(OTHER_ACCOUNT, file.mediaId), undefined);
      const events = await inboundEvents(store, e.endpointId);
      assert.equal(events.length, 1);
      assert.deepEqual(events[0]?.data.Media, {
        State: 'stored',
        MediaId: file.mediaId,
        Url: url,
        MimeType: 'image/png',
        FileName: 'receipt.png',
        FileSize: file.size,
        Sha256: file.sha256,
      });
      const page = await store.listInbound({ accountId: ACCOUNT, limit: 10 });
      assert.equal(page.messages[0]?.media?.state, 'stored');
      assert.deepEqual(await store.claimInboundMedia(NOW + 9 * LEASE, NOW + 10 * LEASE, 10), []);
    });

    test('a postponed file waits for its time, its error noted; a failure is announced', async (store) => {
      const e = await owned(store);
      await store.storeInbound(photo(), 'in_m2');
      await store.claimInboundMedia(NOW, NOW + LEASE, 10);
      await store.postponeInboundMedia('in_m2', NOW + 5 * SECOND, 'HTTP 500');
      assert.deepEqual(await store.claimInboundMedia(NOW + 4 * SECOND, NOW + LEASE, 10), []);
      const listed = await store.listInbound({ accountId: ACCOUNT, limit: 1 });
      assert.deepEqual(listed.messages[0]?.media, {
        state: 'pending',
        ref: '7001',
        fileName: 'receipt.png',
        error: 'HTTP 500',
      });
      const [due] = await store.claimInboundMedia(NOW + 5 * SECOND, NOW + LEASE, 10);
      assert.equal(due?.attempts, 2);
      await store.settleInboundMedia('in_m2', { state: 'failed', error: '100: gone' }, NOW);
      const events = await inboundEvents(store, e.endpointId);
      assert.deepEqual(events[0]?.data.Media, { State: 'failed', Error: '100: gone' });
    });

    test('an unrouted message keeps its reference and is never fetched', async (store) => {
      const { message } = await store.storeInbound(photo({ to: '+15559990000' }), 'in_m3');
      assert.equal(message.accountId, undefined);
      assert.deepEqual(message.media, {
        state: 'failed',
        ref: '7001',
        fileName: 'receipt.png',
        error: UNROUTED_MEDIA,
      });
      assert.deepEqual(await store.claimInboundMedia(NOW, NOW + LEASE, 10), []);
    });
  });
}
