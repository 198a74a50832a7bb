import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { DueFallback, FallbackOutcome } from '../../domain/business-messages/conversation.js';
import type { ArrivedMessage } from '../../domain/inbound/inbound.js';
import type { Store } from '../../domain/ports.js';
import { endpoint } from './outbox-contract.js';
import {
  ACCOUNT,
  HOUR,
  LEASE,
  NOW,
  SECOND,
  batch,
  business,
  only,
  sms,
  states,
  storeTest,
  unique,
  type OpenStore,
} from './fixtures.js';

const PHONE_A = '+15550001111';
const PHONE_B = '+15550002222';
const CONTACT = '+447700900123';

function whatsapp(overrides: Partial<ArrivedMessage> = {}): ArrivedMessage {
  return {
    channel: 'whatsapp',
    from: CONTACT,
    to: PHONE_A,
    type: 'text',
    body: 'hi',
    dedupeKey: unique('wamid'),
    complete: true,
    receivedAt: NOW,
    ...overrides,
  };
}

const FALLBACK = { templateId: 'T1', params: ['1234'], senderId: '' };

/** A business message with a fallback, accepted at NOW; `afterS` as its Fallback.After. */
async function withFallback(
  store: Store,
  afterS?: number,
  failure?: { code: string; desc: string },
) {
  const m = business({
    fallback: { ...FALLBACK, ...(afterS === undefined ? {} : { afterS }) },
    ...(failure ? { failure } : {}),
  });
  await store.acceptBusinessMessage(m);
  return m;
}

function sent(due: DueFallback, sessionNo = unique('fb-session')): FallbackOutcome {
  const b = batch([sms({ phone: due.e164, e164: due.e164 })], { sessionNo, acceptedAt: NOW });
  return { state: 'sent', batch: b, reason: 'the business message failed' };
}

export function conversationsContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('the 24-hour window', () => {
    test("is the contact's latest message to that business phone, stored or not routed", async (store) => {
      assert.equal(await store.lastInbound(PHONE_A, CONTACT), undefined);
      await store.storeInbound(whatsapp({ receivedAt: NOW }), unique('in'));
      await store.storeInbound(whatsapp({ receivedAt: NOW + HOUR }), unique('in'));
      // Meta does not keep order: an older message arriving late does not move it back.
      await store.storeInbound(whatsapp({ receivedAt: NOW + SECOND }), unique('in'));
      assert.equal(await store.lastInbound(PHONE_A, CONTACT), NOW + HOUR);
      assert.equal(await store.lastInbound(PHONE_B, CONTACT), undefined, 'another phone');
      assert.equal(await store.lastInbound(PHONE_A, '+447700900999'), undefined, 'another contact');
    });

    test('is opened by WhatsApp messages only, and once per message', async (store) => {
      const again = whatsapp({ receivedAt: NOW });
      await store.storeInbound(again, unique('in'));
      await store.storeInbound({ ...again, receivedAt: NOW + HOUR }, unique('in'));
      assert.equal(await store.lastInbound(PHONE_A, CONTACT), NOW, 'a redelivery is not new');
      await store.storeInbound(whatsapp({ channel: 'sms', to: PHONE_B }), unique('in'));
      assert.equal(await store.lastInbound(PHONE_B, CONTACT), undefined);
    });

    test('a business phone keeps its WindowGuard, and registering again changes it', async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      const phone = {
        accountId: ACCOUNT,
        businessPhone: PHONE_A,
        channel: 'simulator',
        createdAt: NOW,
      };
      await store.addBusinessPhone(phone);
      assert.equal((await store.getBusinessPhone(ACCOUNT, PHONE_A))?.windowGuard, undefined);
      await store.addBusinessPhone({ ...phone, windowGuard: true });
      assert.equal((await store.getBusinessPhone(ACCOUNT, PHONE_A))?.windowGuard, true);
      await store.addBusinessPhone({ ...phone, windowGuard: false });
      assert.equal((await store.getBusinessPhone(ACCOUNT, PHONE_A))?.windowGuard, false);
    });
  });

  describe('SMS fallbacks', () => {
    test('are due when the message fails, ends unknown or is delivered, or when After passes', async (store) => {
      const onFailure = await withFallback(store);
      const after = await withFallback(store, 60);
      assert.deepEqual(await store.dueFallbacks(NOW, 10), []);
      const due = only(await store.dueFallbacks(NOW + 60 * SECOND, 10));
      assert.equal(due.messageId, after.messageId);
      assert.deepEqual(
        [due.templateId, due.params, due.senderId, due.e164, due.status, due.dueAt],
        ['T1', ['1234'], '', after.e164, 'accepted', NOW + 60 * SECOND],
      );
      // Both are due at NOW, and a claim's order among equals is the store's: fail the first one.
      const claimed = (await store.claimDue(NOW, 10, LEASE)).find(
        (m) => m.messageId === onFailure.messageId,
      );
      assert.ok(claimed);
      await store.recordOutcomes(
        [{ id: claimed.id, attempt: claimed.attempts, kind: 'failed', code: '131026', desc: 'x' }],
        NOW,
      );
      const failed = await store.dueFallbacks(NOW, 10);
      assert.deepEqual(
        failed.map((d) => [d.messageId, d.status]),
        [[onFailure.messageId, 'failed']],
      );
    });

    test("one the account's policy refuses settles failed, naming the rule; nothing is sent", async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      await store.setAccountPolicy(ACCOUNT, { prepaid: true }, NOW);
      await withFallback(store, undefined, { code: '131047', desc: 'window closed' });
      const due = only(await store.dueFallbacks(NOW, 10));
      const settled = await store.settleFallback(due, sent(due, 'FB-P'), NOW + SECOND);
      assert.ok(settled?.state === 'failed', 'settled failed');
      assert.equal(settled.rule, 'prepaid');
      assert.match(settled.reason, /no SMS was sent: balance too low \(Prepaid\)/);
      assert.deepEqual(await store.accountSessions(ACCOUNT, ['FB-P']), []);
      assert.deepEqual(await store.dueFallbacks(NOW + 99 * HOUR, 10), []);
    });

    test('settle at most once: the SMS session, its event, and the view', async (store) => {
      const e = endpoint({ eventTypes: ['message.fallback'] });
      await store.ensureAccount(ACCOUNT, NOW);
      await store.insertEndpoint(e);
      const m = await withFallback(store, undefined, { code: '131047', desc: 'window closed' });
      const due = only(await store.dueFallbacks(NOW, 10));
      assert.equal(due.status, 'failed', 'accepted failed, outside the window');
      const outcome = sent(due, 'FB-1');
      assert.deepEqual(await store.settleFallback(due, outcome, NOW + SECOND), outcome);
      assert.equal(await store.settleFallback(due, sent(due, 'FB-2'), NOW + SECOND), undefined);
      assert.deepEqual(await store.dueFallbacks(NOW + 99 * HOUR, 10), []);
      assert.deepEqual(await store.accountSessions(ACCOUNT, ['FB-1', 'FB-2']), ['FB-1']);
      assert.deepEqual(await states(store), { queued: 1, submitting: 0, submitted: 0, final: 1 });
      const view = await store.getBusinessMessage(m.messageId, 'any');
      assert.deepEqual(view?.fallback, {
        state: 'sent',
        sessionNo: 'FB-1',
        phone: due.e164,
        reason: 'the business message failed',
      });
      const [delivery] = await store.claimDeliveries(e.endpointId, NOW + SECOND, 10, NOW + LEASE);
      const body = JSON.parse(delivery?.body ?? '{}') as {
        type: string;
        data: Record<string, unknown>;
      };
      assert.equal(body.type, 'message.fallback');
      assert.deepEqual(
        [body.data.MessageId, body.data.SessionNo, body.data.State],
        [m.messageId, 'FB-1', 'sent'],
      );
    });

    test('a delivered message settles its fallback as unneeded, with no SMS', async (store) => {
      const m = await withFallback(store, 60);
      const [claimed] = await store.claimDue(NOW, 10, LEASE);
      assert.ok(claimed);
      await store.recordOutcomes(
        [
          {
            id: claimed.id,
            attempt: claimed.attempts,
            kind: 'submitted',
            route: claimed.route,
            upstream: '',
            upstreamId: 'w1',
          },
        ],
        NOW,
      );
      await store.applyReports(
        [
          {
            route: claimed.route,
            upstream: '',
            upstreamId: 'w1',
            status: 'delivered',
            code: '',
            desc: '',
            at: NOW,
          },
        ],
        NOW,
      );
      const due = only(await store.dueFallbacks(NOW, 10));
      const unneeded = {
        state: 'unneeded' as const,
        reason: 'the business message was delivered first',
      };
      assert.deepEqual(await store.settleFallback(due, unneeded, NOW), unneeded);
      assert.equal(
        (await store.getBusinessMessage(m.messageId, 'any'))?.fallback?.state,
        'unneeded',
      );
      assert.deepEqual(await store.dueFallbacks(NOW + 99 * HOUR, 10), []);
    });
  });
}
