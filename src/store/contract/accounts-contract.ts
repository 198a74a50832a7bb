import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { apiKey } from './api-keys-contract.js';
import { ACCOUNT, NOW, OTHER_ACCOUNT, storeTest, type OpenStore } from './fixtures.js';

export function accountsContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('accounts', () => {
    test('ensureAccount creates once: true the first time, false afterwards', async (store) => {
      assert.equal(await store.accountExists(ACCOUNT), false);
      assert.equal(await store.ensureAccount(ACCOUNT, NOW), true);
      assert.equal(await store.ensureAccount(ACCOUNT, NOW + 1), false);
      assert.equal(await store.accountExists(ACCOUNT), true);
      assert.equal(await store.accountExists(OTHER_ACCOUNT), false);
    });

    test('an account keeps its own default region until it is cleared', async (store) => {
      assert.equal(await store.setAccountRegion(ACCOUNT, 'US'), false, 'no such account yet');
      await store.ensureAccount(ACCOUNT, NOW);
      await store.ensureAccount(OTHER_ACCOUNT, NOW);
      assert.equal(await store.accountRegion(ACCOUNT), undefined);
      assert.equal(await store.setAccountRegion(ACCOUNT, 'US'), true);
      assert.equal(await store.accountRegion(ACCOUNT), 'US');
      assert.equal(await store.accountRegion(OTHER_ACCOUNT), undefined);
      assert.equal(await store.setAccountRegion(ACCOUNT, undefined), true);
      assert.equal(await store.accountRegion(ACCOUNT), undefined);
    });

    test('countApiKeys counts the keys of every account', async (store) => {
      assert.equal(await store.countApiKeys(), 0);
      await store.ensureAccount(ACCOUNT, NOW);
      await store.ensureAccount(OTHER_ACCOUNT, NOW);
      await store.insertApiKey(apiKey());
      await store.insertApiKey(apiKey({ keyId: 'key_a2', keyHash: 'hash-a2' }));
      await store.insertApiKey(
        apiKey({ keyId: 'key_b', keyHash: 'hash-b', accountId: OTHER_ACCOUNT }),
      );
      assert.equal(await store.countApiKeys(), 3);
    });
  });

  describe('sender ids', () => {
    test('addSenderId adds once: true the first time, false afterwards', async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      assert.equal(await store.addSenderId(ACCOUNT, 'WIREBIRD', NOW), true);
      assert.equal(await store.addSenderId(ACCOUNT, 'WIREBIRD', NOW + 1), false);
    });

    test('hasSenderIds answers only the registered ones among those asked', async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      await store.addSenderId(ACCOUNT, 'ALPHA', NOW);
      await store.addSenderId(ACCOUNT, 'BETA', NOW);
      const found = await store.hasSenderIds(ACCOUNT, ['ALPHA', 'GAMMA', 'BETA']);
      assert.deepEqual([...found].sort(), ['ALPHA', 'BETA']);
      assert.deepEqual([...(await store.hasSenderIds(ACCOUNT, []))], []);
    });

    test("hasSenderIds never answers another account's sender ids", async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      await store.ensureAccount(OTHER_ACCOUNT, NOW);
      await store.addSenderId(OTHER_ACCOUNT, 'THEIRS', NOW);
      await store.addSenderId(ACCOUNT, 'MINE', NOW);
      assert.deepEqual([...(await store.hasSenderIds(ACCOUNT, ['THEIRS', 'MINE']))], ['MINE']);
      assert.deepEqual(
        [...(await store.hasSenderIds(OTHER_ACCOUNT, ['THEIRS', 'MINE']))],
        ['THEIRS'],
      );
      assert.equal(await store.addSenderId(OTHER_ACCOUNT, 'MINE', NOW), true);
    });
  });

  describe('business phones', () => {
    const phone = {
      accountId: ACCOUNT,
      businessPhone: '+15550001111',
      channel: 'simulator',
      createdAt: NOW,
    };

    test('addBusinessPhone stores it: true when new; getBusinessPhone reads it back', async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      assert.equal(await store.getBusinessPhone(ACCOUNT, phone.businessPhone), undefined);
      assert.equal(await store.addBusinessPhone(phone), true);
      assert.deepEqual(await store.getBusinessPhone(ACCOUNT, phone.businessPhone), phone);
    });

    test('adding it again updates its channel, keeps its creation time, answers false', async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      await store.addBusinessPhone(phone);
      const again = { ...phone, channel: 'whatsapp', createdAt: NOW + 5000 };
      assert.equal(await store.addBusinessPhone(again), false);
      assert.deepEqual(await store.getBusinessPhone(ACCOUNT, phone.businessPhone), {
        ...phone,
        channel: 'whatsapp',
      });
    });

    test('a business phone belongs to one account: lookups are per account', async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      await store.ensureAccount(OTHER_ACCOUNT, NOW);
      await store.addBusinessPhone(phone);
      assert.equal(await store.getBusinessPhone(OTHER_ACCOUNT, phone.businessPhone), undefined);
      const theirs = { ...phone, accountId: OTHER_ACCOUNT, channel: 'whatsapp' };
      assert.equal(await store.addBusinessPhone(theirs), true);
      assert.deepEqual(await store.getBusinessPhone(OTHER_ACCOUNT, phone.businessPhone), theirs);
      assert.deepEqual(await store.getBusinessPhone(ACCOUNT, phone.businessPhone), phone);
    });
  });
}
