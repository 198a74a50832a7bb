import assert from 'node:assert/strict';
import { test } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { pino } from 'pino';
import type { Report, SubmitOutcome } from '../domain/messages/message.js';
import { RecordGate } from './record-gate.js';
import { ReportSink } from './report-sink.js';

const log = pino({ level: 'silent' });
const clock = { now: () => 1_000 };

const submitted = (id: number, upstreamId: string, parts?: string[]): SubmitOutcome => ({
  id,
  attempt: 1,
  kind: 'submitted',
  route: 'smpp',
  upstream: 'a',
  upstreamId,
  ...(parts ? { parts } : {}),
});
const report = (upstreamId: string, upstream = 'a'): Report => ({
  route: 'smpp',
  upstream,
  upstreamId,
  status: 'delivered',
  code: 'DELIVRD',
  desc: '',
  at: 1_000,
});

/** A sink over a store that records which reports it applied, in order. */
function sinkWith(gate: RecordGate) {
  const applied: string[] = [];
  const store = {
    applyReports: async (reports: readonly Report[]) => {
      applied.push(...reports.map((r) => r.upstreamId));
      return { unmatched: 0 };
    },
  };
  return { applied, sink: new ReportSink(store, clock, log, { gate }) };
}

test('a report for a submit not yet recorded is applied once the record is done', async () => {
  const gate = new RecordGate();
  const { applied, sink } = sinkWith(gate);
  const held = [submitted(1, 'u1')];
  gate.hold(held);
  const pushed = sink.push([report('u1')]);
  await sink.push([report('u2')]);
  await tick();
  assert.deepEqual(applied, ['u2'], 'u1 waited; a report of another submit did not');
  gate.release(held);
  await pushed;
  assert.deepEqual(applied, ['u2', 'u1']);
});

test('each part of a multi-part submit holds its report, and the same id on another route does not', async () => {
  const gate = new RecordGate();
  const { applied, sink } = sinkWith(gate);
  const held = [submitted(2, 'p1', ['p1', 'p2'])];
  gate.hold(held);
  const part = sink.push([report('p2')]);
  await sink.push([report('p2', 'b')]);
  assert.deepEqual(applied, ['p2'], 'SMSC b’s p2 is another message');
  gate.release(held);
  await part;
  assert.deepEqual(applied, ['p2', 'p2']);
});

test('retries and failures hold nothing, and a released gate holds nothing more', () => {
  const gate = new RecordGate();
  gate.hold([
    { id: 3, attempt: 1, kind: 'retry', dueAt: 2_000, code: 'X', desc: '' },
    { id: 4, attempt: 1, kind: 'failed', code: 'X', desc: '' },
  ]);
  assert.equal(gate.whenRecorded([report('')]), undefined);
  const held = [submitted(5, 'u5')];
  gate.hold(held);
  assert.ok(gate.whenRecorded([report('u5')]));
  gate.release(held);
  assert.equal(gate.whenRecorded([report('u5')]), undefined);
});
