import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { pino } from 'pino';
import type { Report } from '../domain/messages/message.js';
import { ReportSink } from './report-sink.js';
import { until } from '../../test/helpers/eventually.js';

const log = pino({ level: 'silent' });
const clock = { now: () => 1_700_000_000_000 };

function report(n: number): Report {
  return {
    route: 'simulator',
    upstream: '',
    upstreamId: `sim-${n}`,
    status: 'delivered',
    code: 'DELIVRD',
    desc: 'delivered',
    at: 1_700_000_000_000 + n,
  };
}

interface Call {
  reports: Report[];
  now: number;
  settle: (result: { unmatched: number } | Error) => void;
}

/** applyReports that records each call and settles only when the test says so. */
function heldStore() {
  const calls: Call[] = [];
  return {
    calls,
    store: {
      applyReports(reports: readonly Report[], now: number): Promise<{ unmatched: number }> {
        return new Promise((resolve, reject) => {
          calls.push({
            reports: [...reports],
            now,
            settle: (r) => (r instanceof Error ? reject(r) : resolve(r)),
          });
        });
      },
    },
  };
}

function track(p: Promise<unknown>) {
  const state = { settled: false, rejected: undefined as unknown };
  void p.then(
    () => (state.settled = true),
    (err: unknown) => {
      state.settled = true;
      state.rejected = err;
    },
  );
  return state;
}

test('pushes from several callers in the same tick are applied in one call', async () => {
  const { calls, store } = heldStore();
  const sink = new ReportSink(store, clock, log);
  const pushes = [
    sink.push([report(1)]),
    sink.push([report(2), report(3)]),
    sink.push([report(4)]),
  ];
  await until(() => calls.length === 1, 'the batch');
  for (let i = 0; i < 5; i++) await tick();
  assert.equal(calls.length, 1);
  assert.deepEqual(
    calls[0]?.reports.map((r) => r.upstreamId),
    ['sim-1', 'sim-2', 'sim-3', 'sim-4'],
  );
  assert.equal(calls[0].now, clock.now());
  calls[0].settle({ unmatched: 0 });
  await Promise.all(pushes);
  assert.equal(sink.applied, 4);
  assert.equal(sink.unmatched, 0);
});

test('each push resolves only after applyReports resolves', async () => {
  const { calls, store } = heldStore();
  const sink = new ReportSink(store, clock, log);
  const a = track(sink.push([report(1)]));
  const b = track(sink.push([report(2)]));
  await until(() => calls.length === 1, 'applyReports to be called');
  for (let i = 0; i < 10; i++) await tick();
  assert.equal(a.settled, false, 'resolved before the reports were durable');
  assert.equal(b.settled, false, 'resolved before the reports were durable');
  calls[0]?.settle({ unmatched: 0 });
  await until(() => a.settled && b.settled, 'both pushes');
  assert.equal(a.rejected, undefined);
  assert.equal(b.rejected, undefined);
});

test('pushes in a later tick go in a later batch', async () => {
  const { calls, store } = heldStore();
  const sink = new ReportSink(store, clock, log);
  const first = sink.push([report(1)]);
  await until(() => calls.length === 1, 'the first batch');
  const second = track(sink.push([report(2)]));
  await until(() => calls.length === 2, 'the second batch');
  assert.deepEqual(
    calls[1]?.reports.map((r) => r.upstreamId),
    ['sim-2'],
  );
  calls[1].settle({ unmatched: 0 });
  await until(() => second.settled, 'the second push');
  calls[0]?.settle({ unmatched: 0 });
  await first;
  assert.equal(sink.applied, 2);
});

test('if applyReports rejects, every push of that batch rejects', async () => {
  const { calls, store } = heldStore();
  const sink = new ReportSink(store, clock, log);
  const failure = new Error('disk full');
  const pushes = [sink.push([report(1)]), sink.push([report(2)])];
  await until(() => calls.length === 1, 'the batch');
  calls[0]?.settle(failure);
  for (const p of pushes) await assert.rejects(p, (err) => err === failure);
  assert.equal(sink.applied, 0);

  // The sink is not stuck: the next batch goes through.
  const next = sink.push([report(3)]);
  await until(() => calls.length === 2, 'the next batch');
  calls[1]?.settle({ unmatched: 0 });
  await next;
  assert.equal(sink.applied, 1);
});

test('the unmatched count accumulates across batches', async () => {
  let n = 0;
  const answers = [{ unmatched: 2 }, { unmatched: 0 }, { unmatched: 1 }];
  const sink = new ReportSink(
    { applyReports: async () => answers[n++] ?? { unmatched: 0 } },
    clock,
    log,
  );
  await Promise.all([sink.push([report(1), report(2)]), sink.push([report(3)])]);
  assert.equal(sink.unmatched, 2);
  assert.equal(sink.applied, 1);
  await sink.push([report(4)]);
  assert.equal(sink.unmatched, 2);
  assert.equal(sink.applied, 2);
  await sink.push([report(5), report(6)]);
  assert.equal(sink.unmatched, 3);
  assert.equal(sink.applied, 3);
});
