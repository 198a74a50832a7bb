import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Store } from '../../domain/ports.js';
import type { SmppCredential } from '../../domain/smpp-server/credential.js';
import { ACCOUNT, NOW, OTHER_ACCOUNT, storeTest, type OpenStore } from './fixtures.js';
import { apiKey } from './api-keys-contract.js';

/** The key record a credential is saved with. */
const record = (c: SmppCredential, keyId = `key_${c.systemId}`) =>
  apiKey({
    keyId,
    kind: 'smpp',
    accountId: c.accountId,
    keyHash: `smpp:${c.systemId}`,
    prefix: c.systemId,
  });

const save = (store: Pick<Store, 'saveSmppCredential'>, c: SmppCredential) =>
  store.saveSmppCredential(c, record(c, `key_${c.systemId}_${c.createdAt}_${c.passwordHash}`));

function credential(overrides: Partial<SmppCredential> = {}): SmppCredential {
  return {
    systemId: 'esme1',
    accountId: ACCOUNT,
    passwordHash: 'scrypt$16384$8$1$salt$hash',
    allowedNetworks: [],
    maxBinds: 4,
    maxTps: 1000,
    window: 10,
    createdAt: NOW,
    ...overrides,
  };
}

export function smppCredentialsContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('SMPP server credentials', () => {
    test('are saved, read by system_id and listed per account', async (store) => {
      const a = credential({ allowedNetworks: ['10.0.0.0/8', '2001:db8::/32'] });
      const b = credential({ systemId: 'other', accountId: OTHER_ACCOUNT });
      assert.equal(await store.saveSmppCredential(a, record(a)), 'saved');
      assert.equal(await store.saveSmppCredential(b, record(b)), 'saved');
      assert.deepEqual(await store.apiKeyByHash('smpp:esme1'), record(a));
      assert.deepEqual(await store.getSmppCredential('esme1'), a);
      assert.equal(await store.getSmppCredential('nobody'), undefined);
      assert.deepEqual(await store.listSmppCredentials(ACCOUNT), [a]);
      assert.deepEqual(
        (await store.listSmppCredentials(undefined)).map((c) => c.systemId),
        ['esme1', 'other'],
      );
    });

    test("replace the account's own, keeping its record; never another account's system_id", async (store) => {
      await save(store, credential());
      const first = await store.apiKeyByHash('smpp:esme1');
      const again = credential({ passwordHash: 'new', maxTps: 5, createdAt: NOW + 1 });
      assert.equal(await save(store, again), 'saved');
      const kept = await store.getSmppCredential('esme1');
      assert.deepEqual([kept?.passwordHash, kept?.maxTps, kept?.createdAt], ['new', 5, NOW]);
      assert.deepEqual(await store.apiKeyByHash('smpp:esme1'), first);
      const theft = credential({ accountId: OTHER_ACCOUNT, passwordHash: 'mine' });
      assert.equal(await save(store, theft), 'taken');
      assert.equal((await store.getSmppCredential('esme1'))?.accountId, ACCOUNT);
      assert.equal((await store.apiKeyByHash('smpp:esme1'))?.accountId, ACCOUNT);
      assert.equal((await store.listApiKeys(OTHER_ACCOUNT)).length, 0, 'no record for the thief');
    });

    test('are deleted, with their record, only by their own account', async (store) => {
      await save(store, credential());
      assert.equal(await store.deleteSmppCredential(OTHER_ACCOUNT, 'esme1'), false);
      assert.ok(await store.apiKeyByHash('smpp:esme1'));
      assert.equal(await store.deleteSmppCredential(ACCOUNT, 'esme1'), true);
      assert.equal(await store.getSmppCredential('esme1'), undefined);
      assert.equal(await store.apiKeyByHash('smpp:esme1'), undefined);
    });
  });
}
