import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { KeyRecord } from '../../domain/keys/key-record.js';
import { ACCOUNT, NOW, OTHER_ACCOUNT, storeTest, type OpenStore } from './fixtures.js';

export function apiKey(overrides: Partial<KeyRecord> = {}): KeyRecord {
  return {
    keyId: 'key_a',
    kind: 'api',
    accountId: ACCOUNT,
    keyHash: 'hash-a',
    name: 'billing',
    prefix: 'wb_AbCd',
    scopes: [],
    source: 'admin',
    createdAt: NOW,
    expiresAt: undefined,
    revokedAt: undefined,
    revokedReason: '',
    lastUsedAt: undefined,
    ...overrides,
  };
}

export function apiKeysContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('API keys', () => {
    test('a key hash leads to its record; unknown hashes to none; ids and hashes are unique', async (store) => {
      const a = apiKey({ scopes: ['send', 'read'], expiresAt: NOW + 1000 });
      const b = apiKey({
        keyId: 'key_b',
        keyHash: 'hash-b',
        accountId: OTHER_ACCOUNT,
        source: 'env',
      });
      await store.insertApiKey(a);
      await store.insertApiKey(b);
      assert.deepEqual(await store.apiKeyByHash('hash-a'), a);
      assert.deepEqual(await store.apiKeyByHash('hash-b'), b);
      assert.equal(await store.apiKeyByHash('hash-c'), undefined);
      await assert.rejects(store.insertApiKey(apiKey({ keyId: 'key_c' })), 'a hash twice');
      await assert.rejects(store.insertApiKey(apiKey({ keyHash: 'hash-c' })), 'an id twice');
      assert.equal(await store.countApiKeys(), 2);
    });

    test('are listed per account, oldest first, or all for the operator', async (store) => {
      await store.insertApiKey(apiKey({ keyId: 'key_2', keyHash: 'h2', createdAt: NOW + 5 }));
      await store.insertApiKey(apiKey({ keyId: 'key_1', keyHash: 'h1' }));
      await store.insertApiKey(apiKey({ keyId: 'key_3', keyHash: 'h3', accountId: OTHER_ACCOUNT }));
      const ids = (list: KeyRecord[]) => list.map((k) => k.keyId);
      assert.deepEqual(ids(await store.listApiKeys(ACCOUNT)), ['key_1', 'key_2']);
      assert.deepEqual(ids(await store.listApiKeys(OTHER_ACCOUNT)), ['key_3']);
      assert.deepEqual(ids(await store.listApiKeys(undefined)), ['key_1', 'key_3', 'key_2']);
    });

    test('are renamed, given an expiry and revoked once, by their own account only', async (store) => {
      await store.insertApiKey(apiKey());
      assert.equal(await store.updateApiKey(OTHER_ACCOUNT, 'key_a', { name: 'x' }), undefined);
      const renamed = await store.updateApiKey(ACCOUNT, 'key_a', { name: 'payments' });
      assert.equal(renamed?.name, 'payments');
      const expiring = await store.updateApiKey(ACCOUNT, 'key_a', { expiresAt: NOW + 60 });
      assert.equal(expiring?.expiresAt, NOW + 60);
      assert.equal(expiring.name, 'payments', 'a change keeps what it does not name');
      const revoked = await store.updateApiKey(ACCOUNT, 'key_a', {
        revokedAt: NOW + 1,
        revokedReason: 'leaked',
      });
      assert.deepEqual([revoked?.revokedAt, revoked?.revokedReason], [NOW + 1, 'leaked']);
      const again = await store.updateApiKey(ACCOUNT, 'key_a', {
        revokedAt: NOW + 9,
        revokedReason: 'other',
      });
      assert.deepEqual(
        [again?.revokedAt, again?.revokedReason],
        [NOW + 1, 'leaked'],
        'the first revocation stays',
      );
      assert.equal((await store.apiKeyByHash('hash-a'))?.revokedAt, NOW + 1);
    });

    test('keep the latest time they were used, never an earlier one', async (store) => {
      await store.insertApiKey(apiKey());
      await store.touchApiKeys([{ keyId: 'key_a', at: NOW + 10 }]);
      await store.touchApiKeys([
        { keyId: 'key_a', at: NOW + 5 },
        { keyId: 'key_none', at: NOW },
      ]);
      assert.equal((await store.apiKeyByHash('hash-a'))?.lastUsedAt, NOW + 10);
      await store.touchApiKeys([]);
    });

    test('env keys no longer configured are revoked; other keys are not', async (store) => {
      await store.insertApiKey(apiKey({ keyId: 'key_kept', keyHash: 'kept', source: 'env' }));
      await store.insertApiKey(apiKey({ keyId: 'key_gone', keyHash: 'gone', source: 'env' }));
      await store.insertApiKey(apiKey({ keyId: 'key_cli', keyHash: 'cli', source: 'cli' }));
      const smpp = {
        keyId: 'key_smpp',
        keyHash: 'smpp:gone',
        source: 'env',
        kind: 'smpp',
      } as const;
      await store.insertApiKey(apiKey(smpp));
      const gone = await store.revokeEnvKeysExcept(
        'api',
        ['kept'],
        NOW + 1,
        'removed from WIREBIRD_API_KEYS',
      );
      assert.deepEqual(gone, ['key_gone']);
      assert.equal(
        (await store.apiKeyByHash('gone'))?.revokedReason,
        'removed from WIREBIRD_API_KEYS',
      );
      assert.equal((await store.apiKeyByHash('kept'))?.revokedAt, undefined);
      assert.equal((await store.apiKeyByHash('cli'))?.revokedAt, undefined);
      assert.deepEqual(await store.revokeEnvKeysExcept('api', ['kept'], NOW + 2, 'again'), []);
      // Each kind is revoked by its own variable's list only.
      assert.equal((await store.apiKeyByHash('smpp:gone'))?.revokedAt, undefined);
      assert.deepEqual(await store.revokeEnvKeysExcept('smpp', [], NOW + 3, 'gone'), ['key_smpp']);
    });
  });
}
