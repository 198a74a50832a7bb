import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { TemplateStatus } from '../../domain/templates/template.js';
import {
  ACCOUNT,
  LEASE,
  NOW,
  batch,
  idempotency,
  receiptsOf,
  report,
  sms,
  states,
  storeTest,
  template,
  type OpenStore,
} from './fixtures.js';

/**
 * Calls made at once, as requests on several connections (or several nodes) make them. An
 * adapter with one writer passes trivially; one with a pool must pass by its locking.
 */
export function concurrencyContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('concurrent calls', () => {
    test('twin requests with one idempotency key at once: exactly one stores its messages', async (store) => {
      const twins = Array.from({ length: 6 }, (_, i) =>
        store.acceptBatch(
          batch([sms(), sms()]),
          idempotency({ key: 'race', response: `twin ${i}` }),
        ),
      );
      const answers = await Promise.all(twins);
      const winners = answers.filter((a) => !('raced' in a));
      assert.equal(winners.length, 1, 'one twin stores');
      const stored = await store.findIdempotency(ACCOUNT, 'race', 0);
      assert.ok(stored);
      for (const a of answers) {
        if ('raced' in a) assert.deepEqual(a.raced, stored, 'the others answer its record');
      }
      assert.deepEqual(await states(store), { queued: 2, submitting: 0, submitted: 0, final: 0 });
    });

    test('claims made at once take disjoint messages, each exactly once', async (store) => {
      await store.acceptBatch(batch(Array.from({ length: 200 }, () => sms())));
      const claims = await Promise.all(
        Array.from({ length: 8 }, () => store.claimDue(NOW, 30, LEASE)),
      );
      const ids = claims.flat().map((m) => m.id);
      assert.equal(new Set(ids).size, ids.length, 'no message claimed twice');
      const rest = await store.claimDue(NOW, 1000, LEASE);
      assert.equal(ids.length + rest.length, 200);
      assert.deepEqual(await states(store), { queued: 0, submitting: 200, submitted: 0, final: 0 });
    });

    test('a report applied while its submit is recorded is never lost', async (store) => {
      const b = batch(Array.from({ length: 60 }, () => sms()));
      await store.acceptBatch(b);
      const claimed = await store.claimDue(NOW, 1000, LEASE);
      // Each message's submit and its report race, one pair after another and all at once.
      await Promise.all(
        claimed.map((m) => {
          const upstreamId = `up-${m.id}`;
          const submitted = {
            id: m.id,
            attempt: m.attempts,
            kind: 'submitted' as const,
            upstream: '',
          };
          return Promise.all([
            store.recordOutcomes([{ ...submitted, route: m.route, upstreamId }], NOW),
            store.applyReports([report(upstreamId, 'delivered', NOW + 1)], NOW + 1),
          ]);
        }),
      );
      const receipts = await receiptsOf(store, b.sessionNo);
      assert.equal(receipts.length, 60, 'every message has its receipt');
      assert.ok(receipts.every((r) => r.ReceiptResult === 'Success'));
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 60 });
    });

    test('the parts of one message reported at once, with its submit, make one receipt', async (store) => {
      const b = batch(Array.from({ length: 20 }, () => sms()));
      await store.acceptBatch(b);
      const claimed = await store.claimDue(NOW, 1000, LEASE);
      await Promise.all(
        claimed.map((m) => {
          // Hex ids, the second part's report quoting its id in decimal.
          const parts = [1, 2, 3].map((k) => `f${m.id.toString(16)}0${k}`);
          const quoted = parts.map((id, k) => (k === 1 ? BigInt(`0x${id}`).toString(10) : id));
          const [upstreamId = ''] = parts;
          const submitted = {
            id: m.id,
            attempt: m.attempts,
            kind: 'submitted' as const,
            upstream: '',
          };
          return Promise.all([
            store.recordOutcomes([{ ...submitted, route: m.route, upstreamId, parts }], NOW),
            ...quoted.map((id) => store.applyReports([report(id, 'delivered', NOW + 1)], NOW + 1)),
          ]);
        }),
      );
      const receipts = await receiptsOf(store, b.sessionNo);
      assert.equal(receipts.length, 20, 'every message has its receipt');
      assert.ok(receipts.every((r) => r.ReceiptDesc === 'all 3 parts delivered by the network'));
      assert.deepEqual(await states(store), { queued: 0, submitting: 0, submitted: 0, final: 20 });
    });

    test('saves of one template from one read at once: exactly one wins', async (store) => {
      const t = template();
      await store.insertTemplate(t);
      const saves = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          store.replaceTemplate({
            ...t,
            templateName: `save ${i}`,
            status: TemplateStatus.Approved,
          }),
        ),
      );
      const won = saves.filter((s) => s !== undefined);
      assert.equal(won.length, 1);
      assert.deepEqual(await store.getTemplateById(t.templateId), won[0]);
    });
  });
}
