import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { SmppCredential } from '../../domain/smpp-server/credential.js';
import { ACCOUNT, NOW, OTHER_ACCOUNT, storeTest, type OpenStore } from './fixtures.js';

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
      assert.equal(await store.saveSmppCredential(a), 'saved');
      assert.equal(await store.saveSmppCredential(b), 'saved');
      assert.deepEqual(await store.getSmppCredential('esme1'), a);
      assert.equal(await store.getSmppCredential('nobody'), undefined);
      assert.deepEqual(await store.listSmppCredentials(ACCOUNT), [a]);
      assert.deepEqual(
        (await store.listSmppCredentials(undefined)).map((c) => c.systemId),
        ['esme1', 'other'],
      );
    });

    test("replace the account's own; never another account's system_id", async (store) => {
      await store.saveSmppCredential(credential());
      const again = credential({ passwordHash: 'new', maxTps: 5, createdAt: NOW + 1 });
      assert.equal(await store.saveSmppCredential(again), 'saved');
      const kept = await store.getSmppCredential('esme1');
      assert.deepEqual([kept?.passwordHash, kept?.maxTps, kept?.createdAt], ['new', 5, NOW]);
      const theft = credential({ accountId: OTHER_ACCOUNT, passwordHash: 'mine' });
      assert.equal(await store.saveSmppCredential(theft), 'taken');
      assert.equal((await store.getSmppCredential('esme1'))?.accountId, ACCOUNT);
    });

    test('are deleted only by their own account', async (store) => {
      await store.saveSmppCredential(credential());
      assert.equal(await store.deleteSmppCredential(OTHER_ACCOUNT, 'esme1'), false);
      assert.equal(await store.deleteSmppCredential(ACCOUNT, 'esme1'), true);
      assert.equal(await store.getSmppCredential('esme1'), undefined);
    });
  });
}
