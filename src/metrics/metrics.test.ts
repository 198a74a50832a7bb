import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { QueueStats } from '../domain/views/views.js';
import { Metrics } from './metrics.js';

describe('metrics: the queue gauges', () => {
  it('read the queue once a scrape, for all three gauges', async () => {
    let reads = 0;
    const store = {
      async queueStats(): Promise<QueueStats> {
        reads++;
        return { depth: 7, oldestDueAt: 1_000, held: 5 };
      },
      async outboxStats() {
        return { pending: 0, oldestPendingAt: undefined };
      },
    };
    const metrics = new Metrics(store, { now: () => 4_000 });
    const { body } = await metrics.exposition();
    assert.equal(reads, 1, 'one read, not one per gauge');
    assert.match(body, /^wirebird_queue_depth 7$/m);
    assert.match(body, /^wirebird_queue_oldest_due_age_seconds 3$/m);
    assert.match(body, /^wirebird_messages_held 5$/m);
    await new Promise((r) => setImmediate(r));
    await metrics.exposition();
    assert.equal(reads, 2, 'the next scrape reads again');
  });
});
