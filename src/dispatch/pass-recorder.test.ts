import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Report, SubmitOutcome } from '../domain/messages/message.js';
import { PassRecorder } from './pass-recorder.js';
import { RecordGate } from './record-gate.js';

const submitted = (id: number): SubmitOutcome => ({
  id,
  attempt: 1,
  kind: 'submitted',
  route: 'smpp',
  upstream: '',
  upstreamId: `U${id}`,
});
const turn = () => new Promise((r) => setImmediate(r));

test('records answers as they come, those of one turn together, before the pass ends', async () => {
  const records: number[][] = [];
  const recorder = new PassRecorder({
    record: async (outcomes) => void records.push(outcomes.map((o) => o.id)),
    now: () => 0,
    atMost: 3,
  });
  recorder.add([submitted(1)]);
  recorder.add([submitted(2)]);
  await turn();
  assert.deepEqual(records, [[1, 2]], 'one record for the turn, without waiting for done()');
  recorder.add([submitted(3), submitted(4), submitted(5)]);
  assert.deepEqual(records.at(-1), [3, 4, 5], 'atMost reached: recorded at once');
  recorder.add([submitted(6)]);
  await recorder.done();
  assert.deepEqual(records, [[1, 2], [3, 4, 5], [6]]);
});

test('holds each outcome at the gate until its record, and throws a failed record at the end', async () => {
  const gate = new RecordGate();
  const recorder = new PassRecorder({
    record: () => Promise.reject(new Error('store down')),
    now: () => 0,
    gate,
    atMost: 100,
  });
  recorder.add([submitted(7)]);
  const report: Report = {
    route: 'smpp',
    upstream: '',
    upstreamId: 'U7',
    at: 0,
    status: 'delivered',
    code: 'DELIVRD',
    desc: '',
  };
  const waits = gate.whenRecorded([report]);
  assert.ok(waits, 'held until recorded');
  await assert.rejects(recorder.done(), /store down/);
  await waits;
  assert.equal(gate.whenRecorded([report]), undefined, 'released, recorded or not');
});
