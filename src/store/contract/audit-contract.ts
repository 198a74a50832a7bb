import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { NewAuditEntry } from '../../domain/audit/audit.js';
import { ACCOUNT, NOW, OTHER_ACCOUNT, storeTest, type OpenStore } from './fixtures.js';

const entry = (overrides: Partial<NewAuditEntry> = {}): NewAuditEntry => ({
  at: NOW,
  accountId: ACCOUNT,
  actor: 'admin',
  action: 'key.created',
  target: 'key_a',
  detail: { Name: 'billing', Scopes: ['send'] },
  ...overrides,
});

export function auditContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('audit log', () => {
    test('keeps entries in order, newest first, per account or all, paged back', async (store) => {
      await store.appendAudit([entry(), entry({ target: 'key_b', accountId: OTHER_ACCOUNT })]);
      await store.appendAudit([entry({ action: 'key.revoked', at: NOW + 1, actor: 'cli' })]);
      await store.appendAudit([entry({ accountId: undefined, action: 'console.sessions_ended' })]);
      await store.appendAudit([]);
      const all = await store.listAudit({ limit: 10 });
      assert.deepEqual(
        all.map((e) => e.action),
        ['console.sessions_ended', 'key.revoked', 'key.created', 'key.created'],
      );
      assert.ok(all.every((e, i) => i === 0 || e.id < (all[i - 1]?.id ?? 0)));
      const mine = await store.listAudit({ accountId: ACCOUNT, limit: 10 });
      assert.deepEqual(
        mine.map((e) => [e.action, e.target, e.actor]),
        [
          ['key.revoked', 'key_a', 'cli'],
          ['key.created', 'key_a', 'admin'],
        ],
      );
      assert.deepEqual(mine[1]?.detail, { Name: 'billing', Scopes: ['send'] });
      assert.equal(all[0]?.accountId, undefined);
      const older = await store.listAudit({ before: all[1]?.id, limit: 1 });
      assert.deepEqual(
        older.map((e) => e.id),
        [all[2]?.id],
      );
    });
  });
}
