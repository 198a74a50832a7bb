import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { ConsoleSessionRecord } from '../../domain/access/console-session.js';
import { ACCOUNT, NOW, storeTest, type OpenStore } from './fixtures.js';

function session(overrides: Partial<ConsoleSessionRecord> = {}): ConsoleSessionRecord {
  return {
    sessionHash: 'aaaaaaaaaaaa-one',
    role: 'account',
    accountId: ACCOUNT,
    keyId: 'key_a',
    address: '127.0.0.1',
    createdAt: NOW,
    expiresAt: NOW + 8 * 3600_000,
    endedAt: undefined,
    endedReason: '',
    sealedCsrfSecret: 'sealed-secret',
    ...overrides,
  };
}

export function consoleSessionsContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('console sessions', () => {
    test('are kept, read by hash and listed while live, newest first', async (store) => {
      const a = session();
      const b = session({
        sessionHash: 'bbbbbbbbbbbb-two',
        role: 'admin',
        accountId: undefined,
        keyId: undefined,
        createdAt: NOW + 1,
      });
      const old = session({ sessionHash: 'cccccccccccc', expiresAt: NOW + 5 });
      for (const s of [a, b, old]) await store.insertConsoleSession(s);
      assert.deepEqual(await store.consoleSession(a.sessionHash), a);
      assert.deepEqual(await store.consoleSession(b.sessionHash), b);
      assert.equal(await store.consoleSession('nope'), undefined);
      const live = await store.liveConsoleSessions(NOW + 10);
      assert.deepEqual(
        live.map((s) => s.sessionHash),
        [b.sessionHash, a.sessionHash],
      );
    });

    test('end one by hash or label, or all, once, keeping the first reason', async (store) => {
      await store.insertConsoleSession(session());
      await store.insertConsoleSession(session({ sessionHash: 'bbbbbbbbbbbb-two' }));
      await store.insertConsoleSession(session({ sessionHash: 'dddddddddddd-three' }));
      assert.equal(
        await store.endConsoleSessions({ sessionHash: 'aaaaaaaaaaaa-one' }, NOW + 1, 'logged out'),
        1,
      );
      assert.equal(
        await store.endConsoleSessions({ sessionHash: 'aaaaaaaaaaaa-one' }, NOW + 2, 'again'),
        0,
      );
      assert.equal(await store.endConsoleSessions({ label: 'bbbbbbbbbbbb' }, NOW + 3, 'ended'), 1);
      assert.equal(await store.endConsoleSessions('all', NOW + 4, 'everyone'), 1);
      const one = await store.consoleSession('aaaaaaaaaaaa-one');
      assert.deepEqual([one?.endedAt, one?.endedReason], [NOW + 1, 'logged out']);
      assert.deepEqual(await store.liveConsoleSessions(NOW + 5), []);
    });
  });
}
