import assert from 'node:assert/strict';
import { test } from 'node:test';
import { IDEMPOTENCY_WINDOW_MS } from '../domain/messages/idempotency-window.js';
import { batch, idempotency, NOW } from '../store/contract/fixtures.js';
import { openMemoryStore } from '../store/open-store.js';
import type { ActionContext } from './context.js';
import { findReplay } from './idempotency.js';

/** The API's own reading of the window, on a real store with the clock set by the test. */
test('a replay is answered to the window edge (24 h) and not a millisecond past it', async () => {
  const store = openMemoryStore();
  try {
    const record = idempotency({ response: '{"SessionNo":"first"}' });
    await store.acceptBatch(batch(), record);
    const at = (now: number) =>
      findReplay(
        {
          accountId: record.accountId,
          deps: { store, clock: { now: () => now } },
        } as unknown as ActionContext, // only the store and the clock are read
        { key: record.key, requestHash: record.requestHash },
      );
    assert.deepEqual(await at(NOW + 1), { SessionNo: 'first' });
    assert.deepEqual(await at(NOW + IDEMPOTENCY_WINDOW_MS), { SessionNo: 'first' });
    assert.equal(await at(NOW + IDEMPOTENCY_WINDOW_MS + 1), undefined);
  } finally {
    await store.close();
  }
});
