import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import type { InboxEntry, Report } from '../../domain/messages/message.js';
import { ORDINARY, sms } from '../../../test/helpers/simulator.js';
import { openMemoryStore } from '../../store/open-store.js';
import { ADOPT_AFTER_MS, SIMULATOR, SimulatorChannel } from './simulator-channel.js';
import { until } from '../../../test/helpers/eventually.js';

const log = pino({ level: 'silent' });
const NOW = 1_700_000_000_000;
const clock = { now: () => NOW };

/** An entry another node delivered, its report due at `dueAt` and never sent. */
function leftBehind(ref: number, dueAt: number): InboxEntry {
  return {
    messageRef: ref,
    route: SIMULATOR,
    upstreamId: `sim-${ref}`,
    kind: 'sms',
    from: 'WIREBIRD',
    to: '+8613812345678',
    body: `message ${ref}`,
    type: 'sms',
    segments: 1,
    encoding: 'gsm7',
    deliveredAt: dueAt,
    reportStatus: 'delivered',
    reportDueAt: dueAt,
    reported: false,
    submissions: 1,
    lastAttempt: 1,
  };
}

test('reports another node left pending are taken over once overdue, and only then', async () => {
  const store = openMemoryStore();
  const reports: Report[] = [];
  const ch = new SimulatorChannel({ inbox: store, clock, delayMs: 60_000, log });
  try {
    await ch.start(async (r) => {
      reports.push(...r);
    });
    // Delivered by other nodes after this one started: one long overdue, one just due.
    await store.deliverToInbox(leftBehind(1, NOW - ADOPT_AFTER_MS - 1));
    await store.deliverToInbox(leftBehind(2, NOW - 1000));
    assert.equal(await ch.adoptOverdue(), 1, 'the overdue one only');
    await until(() => reports.length === 1, 'the adopted report');
    assert.deepEqual(
      reports.map((r) => [r.upstreamId, r.status]),
      [['sim-1', 'delivered']],
    );
    // Marked reported once applied: only the one still within its owner's time is pending.
    let pending: number[] = [];
    for (let i = 0; i < 2000; i++) {
      pending = (await store.pendingInboxReports()).map((e) => e.messageRef);
      if (pending.length === 1) break;
      await sleep(1);
    }
    assert.deepEqual(pending, [2]);
  } finally {
    await ch.stop();
    await store.close();
  }
});

test('a report this node holds itself is never adopted a second time', async () => {
  const store = openMemoryStore();
  let later = NOW;
  const ch = new SimulatorChannel({
    inbox: store,
    clock: { now: () => later },
    delayMs: 60_000,
    log,
  });
  try {
    await ch.start(async () => undefined);
    await ch.submit([sms(7, ORDINARY)]);
    later = NOW + 60_000 + ADOPT_AFTER_MS + 1; // overdue by the clock, still queued here
    assert.equal(await ch.adoptOverdue(), 0);
    assert.equal((await store.pendingInboxReports()).length, 1);
  } finally {
    await ch.stop();
    await store.close();
  }
});

test('a report this node sent is not adopted again when it is overdue', async () => {
  const store = openMemoryStore();
  let later = NOW;
  const reports: Report[] = [];
  const ch = new SimulatorChannel({ inbox: store, clock: { now: () => later }, delayMs: 0, log });
  try {
    await ch.start(async (r) => {
      reports.push(...r);
    });
    await ch.submit([sms(8, ORDINARY)]);
    for (let i = 0; i < 500 && reports.length === 0; i++) await sleep(2);
    assert.deepEqual(
      reports.map((r) => [r.upstreamId, r.status]),
      [['sim-8', 'delivered']],
    );
    later = NOW + ADOPT_AFTER_MS + 1;
    for (let i = 0; i < 500 && (await store.pendingInboxReports()).length > 0; i++) await sleep(2);
    assert.equal(await ch.adoptOverdue(), 0, 'reported and marked: nothing to adopt');
    await sleep(20);
    assert.equal(reports.length, 1);
  } finally {
    await ch.stop();
    await store.close();
  }
});
