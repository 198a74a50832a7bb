import assert from 'node:assert/strict';
import { it } from 'node:test';
import { MetricsHistory } from './history.js';
import { Metrics } from './metrics.js';

it('turns counter samples into rates per second and a delivery rate per interval', async () => {
  let now = 1_000_000;
  const clock = { now: () => now };
  const metrics = new Metrics(
    {
      queueStats: async () => ({ depth: 0, oldestDueAt: undefined, held: 0 }),
      outboxStats: async () => ({ pending: 0, oldestPendingAt: undefined }),
    },
    clock,
  );
  const history = new MetricsHistory(metrics, clock, 10_000, 60_000);
  await history.sample();
  now += 10_000;
  metrics.messagesAccepted('sms', Array(50).fill('simulator'));
  metrics.submittedWindow(
    'simulator',
    0.01,
    Array(40).fill({ id: 1, attempt: 1, kind: 'submitted', route: 'simulator', upstreamId: 'u' }),
  );
  metrics.reportsApplied([
    ...Array(3).fill({
      route: 'simulator',
      upstreamId: 'u',
      status: 'delivered',
      code: '',
      desc: '',
      at: now,
    }),
    { route: 'simulator', upstreamId: 'u', status: 'failed', code: '', desc: '', at: now },
  ]);
  await history.sample();
  now += 5_000;
  const rates = await history.rates();
  assert.deepEqual(rates, [
    { at: 1_010_000, acceptedPerS: 5, submittedPerS: 4, receiptsPerS: 0.4, deliveryRate: 0.75 },
    { at: 1_015_000, acceptedPerS: 0, submittedPerS: 0, receiptsPerS: 0, deliveryRate: undefined },
  ]);
  // Samples older than the kept window are dropped.
  now += 120_000;
  await history.sample();
  now += 1_000;
  assert.equal((await history.rates()).length, 1);
});
