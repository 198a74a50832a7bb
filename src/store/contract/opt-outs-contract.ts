import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { DEFAULT_OPT_OUT_SETTINGS, type OptOut } from '../../domain/opt-out/opt-out.js';
import type { Store } from '../../domain/ports.js';
import { ACCOUNT, NOW, OTHER_ACCOUNT, SECOND, storeTest, type OpenStore } from './fixtures.js';
import { endpoint } from './outbox-contract.js';

const optOut = (phone: string, accountId = ACCOUNT): OptOut => ({
  accountId,
  phone,
  source: 'api',
  keyword: '',
  createdAt: NOW,
});

async function accounts(store: Store) {
  await store.ensureAccount(ACCOUNT, NOW);
  await store.ensureAccount(OTHER_ACCOUNT, NOW);
}

export function optOutsContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('opt-outs', () => {
    test('are added once, found among phones, and removed, per account', async (store) => {
      await accounts(store);
      const added = await store.addOptOuts(
        [optOut('+441'), optOut('+442'), optOut('+441', OTHER_ACCOUNT)],
        NOW,
      );
      assert.deepEqual(added, ['+441', '+442', '+441']);
      assert.deepEqual(await store.addOptOuts([optOut('+441')], NOW), []);
      assert.deepEqual([...(await store.optedOutAmong(ACCOUNT, ['+441', '+443']))], ['+441']);
      assert.deepEqual(await store.removeOptOuts(ACCOUNT, ['+441', '+449'], 'api', NOW), ['+441']);
      assert.deepEqual([...(await store.optedOutAmong(ACCOUNT, ['+441', '+442']))], ['+442']);
      assert.deepEqual([...(await store.optedOutAmong(OTHER_ACCOUNT, ['+441']))], ['+441']);
    });

    test('list in phone order by cursor', async (store) => {
      await accounts(store);
      await store.addOptOuts(
        ['+445', '+443', '+444'].map((p) => optOut(p)),
        NOW,
      );
      const first = await store.listOptOuts({ accountId: ACCOUNT, limit: 2 });
      assert.deepEqual(
        first.optOuts.map((o) => o.phone),
        ['+443', '+444'],
      );
      assert.equal(first.nextCursor, '+444');
      const rest = await store.listOptOuts({ accountId: ACCOUNT, after: '+444', limit: 2 });
      assert.deepEqual([rest.optOuts.map((o) => o.phone), rest.nextCursor], [['+445'], undefined]);
      assert.deepEqual(
        (await store.listOptOuts({ accountId: OTHER_ACCOUNT, limit: 5 })).optOuts,
        [],
      );
    });

    test('keywords are the defaults until set', async (store) => {
      await accounts(store);
      assert.deepEqual(await store.optOutSettings(ACCOUNT), DEFAULT_OPT_OUT_SETTINGS);
      const own = { optOutKeywords: ['ALTO'], optInKeywords: ['VOLVER'], exemptVerification: true };
      await store.setOptOutSettings(ACCOUNT, own);
      assert.deepEqual(await store.optOutSettings(ACCOUNT), own);
      assert.deepEqual(await store.optOutSettings(OTHER_ACCOUNT), DEFAULT_OPT_OUT_SETTINGS);
    });

    test('a keyword reply changes the opt-out in the transaction that stores it, with its event', async (store) => {
      await accounts(store);
      const e = endpoint({ eventTypes: ['contact.opted_out', 'contact.opted_in'] });
      await store.insertEndpoint(e);
      await store.addBusinessPhone({
        accountId: ACCOUNT,
        businessPhone: '10690001',
        channel: 'sms',
        createdAt: NOW,
      });
      const reply = (body: string, n: number) =>
        store.storeInbound(
          {
            channel: 'sms',
            from: '+447700900123',
            to: '10690001',
            type: 'text',
            body,
            dedupeKey: `k${n}`,
            complete: true,
            receivedAt: NOW + n * SECOND,
          },
          `in_${n}`,
        );
      await reply(' Stop ', 1);
      assert.equal(
        (await store.listOptOuts({ accountId: ACCOUNT, limit: 5 })).optOuts[0]?.source,
        'keyword',
      );
      await reply('Start', 2);
      assert.deepEqual((await store.listOptOuts({ accountId: ACCOUNT, limit: 5 })).optOuts, []);
      const got = await store.claimDeliveries(
        e.endpointId,
        NOW + 10 * SECOND,
        10,
        NOW + 60 * SECOND,
      );
      assert.deepEqual(
        got.map((d) => d.type),
        ['contact.opted_out', 'contact.opted_in'],
      );
      // Each names the reply that made it, as the opt-out's own row does.
      const keywords = got.map((d) => (JSON.parse(d.body) as { data: { Keyword: string } }).data);
      assert.deepEqual(
        keywords.map((k) => k.Keyword),
        ['Stop', 'Start'],
      );
    });
  });
}
