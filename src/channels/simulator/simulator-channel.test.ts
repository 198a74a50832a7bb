import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { InboxEntry } from '../../domain/messages/message.js';
import { costCount } from '../../domain/segments/segments.js';
import { SIMULATOR, SimulatorChannel } from './simulator-channel.js';
import { TEST_NUMBERS, testOutcomeOf } from './test-numbers.js';
import {
  log,
  ManualClock,
  ORDINARY,
  FAIL,
  REFUSE,
  SILENT,
  sms,
  business,
  until,
  settle,
  collector,
  inbox,
  withStore,
} from '../../../test/helpers/simulator.js';

test('the test numbers table: 0001 fail, 0002 refuse, 0003 silent, others deliver', () => {
  assert.equal(testOutcomeOf(ORDINARY), 'deliver');
  assert.equal(testOutcomeOf(FAIL), 'fail');
  assert.equal(testOutcomeOf(REFUSE), 'refuse');
  assert.equal(testOutcomeOf(SILENT), 'silent');
  assert.equal(testOutcomeOf('+8613800000004'), 'deliver');
  assert.equal(testOutcomeOf('+8613800010001'), 'fail', 'only the last four digits count');
  assert.equal(testOutcomeOf('+8613800001000'), 'deliver');
  assert.deepEqual(Object.keys(TEST_NUMBERS).sort(), ['0001', '0002', '0003']);
});

test('submit: accepted with sim-<id>, except 0002 which is rejected with REJECTD', () =>
  withStore(async (store) => {
    const ch = new SimulatorChannel({
      inbox: store,
      clock: new ManualClock(),
      delayMs: 60_000,
      log,
    });
    await ch.start(collector().listener);
    try {
      const results = await ch.submit([
        sms(11, ORDINARY),
        sms(12, FAIL),
        sms(13, REFUSE),
        sms(14, SILENT),
      ]);
      assert.equal(results.length, 4);
      assert.deepEqual(results[0], { kind: 'accepted', upstreamId: 'sim-11' });
      assert.deepEqual(results[1], { kind: 'accepted', upstreamId: 'sim-12' });
      assert.equal(results[2]?.kind, 'rejected');
      assert.equal(results[2].code, 'REJECTD');
      assert.deepEqual(results[3], { kind: 'accepted', upstreamId: 'sim-14' });
      // The refused message never reached the inbox.
      assert.deepEqual(
        (await inbox(store)).map((e) => e.messageRef),
        [11, 12, 14],
      );
    } finally {
      await ch.stop();
    }
  }));

test('an inbox entry per accepted message, with segments (CostCount) and encoding', () =>
  withStore(async (store) => {
    const clock = new ManualClock();
    const ch = new SimulatorChannel({ inbox: store, clock, delayMs: 60_000, log });
    await ch.start(collector().listener);
    const gsm161 = 'a'.repeat(161);
    const ucs71 = '你'.repeat(71);
    const ext = '€'.repeat(80); // 160 septets: extension characters count two
    try {
      await ch.submit([
        sms(1, ORDINARY, 'short', 'ACME'),
        sms(2, ORDINARY, gsm161),
        sms(3, '+8613900000009', ucs71),
        sms(4, ORDINARY, ext + 'x'),
        business(5, '+4915112345678'),
      ]);
      const entries = await inbox(store);
      assert.equal(entries.length, 5);
      const [e1, e2, e3, e4, e5] = entries as [
        InboxEntry,
        InboxEntry,
        InboxEntry,
        InboxEntry,
        InboxEntry,
      ];
      assert.equal(e1.segments, 1);
      assert.equal(e1.encoding, 'gsm7');
      assert.equal(e1.from, 'ACME');
      assert.equal(e1.to, ORDINARY);
      assert.equal(e1.body, 'short');
      assert.equal(e1.kind, 'sms');
      assert.equal(e1.route, SIMULATOR);
      assert.equal(e1.upstreamId, 'sim-1');
      assert.equal(e1.deliveredAt, clock.t);
      assert.equal(e1.reportStatus, 'delivered');
      assert.equal(e1.reportDueAt, clock.t + 60_000);
      assert.equal(e1.reported, false);
      assert.equal(e2.segments, 2);
      assert.equal(e2.encoding, 'gsm7');
      assert.equal(e2.from, 'WIREBIRD', 'no sender id → the default sender');
      assert.equal(e3.segments, 2);
      assert.equal(e3.encoding, 'ucs2');
      assert.equal(e3.to, '+8613900000009');
      assert.equal(e4.segments, 2);
      assert.equal(e4.encoding, 'gsm7');
      for (const [e, body] of [
        [e1, 'short'],
        [e2, gsm161],
        [e3, ucs71],
        [e4, ext + 'x'],
      ] as const) {
        assert.equal(e.segments, costCount(body));
      }
      assert.equal(e5.kind, 'business');
      assert.equal(e5.from, '+15550001111');
      assert.equal(e5.to, '+4915112345678');
      assert.equal(e5.segments, 1);
      assert.equal(e5.encoding, 'json');
      assert.equal(e5.type, 'text');
      assert.equal(e5.body, JSON.stringify({ body: 'hello 5' }));
      // The per-recipient view the console will use.
      const forPhone = await store.listInbox({ phone: ORDINARY, limit: 10 });
      assert.deepEqual(forPhone.map((e) => e.messageRef).sort(), [1, 2, 4]);
    } finally {
      await ch.stop();
    }
  }));

test('delay 0: delivered (DELIVRD) for ordinary numbers, failed (UNDELIV) for 0001, nothing for 0003', () =>
  withStore(async (store) => {
    const clock = new ManualClock();
    const reports = collector();
    const ch = new SimulatorChannel({ inbox: store, clock, delayMs: 0, log });
    await ch.start(reports.listener);
    try {
      await ch.submit([sms(1, ORDINARY), sms(2, FAIL), sms(3, SILENT), sms(4, REFUSE)]);
      await until(() => reports.all().length >= 2, 'two reports');
      await settle();
      const byId = new Map(reports.all().map((r) => [r.upstreamId, r]));
      assert.equal(reports.all().length, 2);
      assert.deepEqual(byId.get('sim-1'), {
        route: SIMULATOR,
        upstream: '',
        upstreamId: 'sim-1',
        status: 'delivered',
        code: 'DELIVRD',
        desc: 'delivered to the handset',
        at: clock.t,
      });
      const failed = byId.get('sim-2');
      assert.equal(failed?.status, 'failed');
      assert.equal(failed.code, 'UNDELIV');
      assert.equal(byId.has('sim-3'), false, 'the silent test number reported');
      assert.equal(byId.has('sim-4'), false, 'a refused message reported');
      // Reported entries are marked, and the silent one is never pending: nothing is left.
      assert.deepEqual(await store.pendingInboxReports(), []);
    } finally {
      await ch.stop();
    }
  }));

test('with delay 0 a report goes out right after its submit (the sink waits for the record)', () =>
  withStore(async (store) => {
    const reports = collector();
    const ch = new SimulatorChannel({ inbox: store, clock: new ManualClock(), delayMs: 0, log });
    await ch.start(reports.listener);
    try {
      await ch.submit([sms(1, ORDINARY), sms(2, ORDINARY)]);
      await until(() => reports.all().length === 2, 'both reported');
      assert.deepEqual(
        reports
          .all()
          .map((r) => r.upstreamId)
          .sort(),
        ['sim-1', 'sim-2'],
      );
    } finally {
      await ch.stop();
    }
  }));

test('business messages report "sent" and then the final status', () =>
  withStore(async (store) => {
    const reports = collector();
    const ch = new SimulatorChannel({ inbox: store, clock: new ManualClock(), delayMs: 0, log });
    await ch.start(reports.listener);
    try {
      await ch.submit([business(1, ORDINARY), business(2, FAIL), business(3, SILENT)]);
      await until(() => reports.all().length >= 4, 'four reports');
      await settle();
      const of = (id: string) =>
        reports
          .all()
          .filter((r) => r.upstreamId === id)
          .map((r) => [r.status, r.code]);
      assert.deepEqual(of('sim-1'), [
        ['sent', 'SENT'],
        ['delivered', 'DELIVRD'],
      ]);
      assert.deepEqual(of('sim-2'), [
        ['sent', 'SENT'],
        ['failed', 'UNDELIV'],
      ]);
      assert.deepEqual(of('sim-3'), []);
      assert.equal(reports.all().length, 4);
    } finally {
      await ch.stop();
    }
  }));

test('a resubmission of the same message is recognised: counted, not delivered or reported twice', () =>
  withStore(async (store) => {
    const reports = collector();
    const ch = new SimulatorChannel({ inbox: store, clock: new ManualClock(), delayMs: 0, log });
    await ch.start(reports.listener);
    try {
      const first = await ch.submit([sms(42, ORDINARY)]);
      await until(() => reports.all().length === 1, 'the first report');
      const again = await ch.submit([sms(42, ORDINARY)]);
      assert.deepEqual(again, first, 'the same answer and upstream id');
      assert.equal(ch.duplicates, 1);
      await settle();
      assert.equal(reports.all().length, 1, 'reported twice');
      assert.equal((await inbox(store)).length, 1);

      // Also when the first delivery has not been reported yet, and within one chunk.
      await ch.submit([sms(43, FAIL), sms(43, FAIL)]);
      assert.equal(ch.duplicates, 2);
      await until(() => reports.all().length === 2, 'the report for 43');
      await settle();
      assert.equal(reports.all().filter((r) => r.upstreamId === 'sim-43').length, 1);
      assert.equal((await inbox(store)).length, 2);
    } finally {
      await ch.stop();
    }
  }));

test('restart safety: a new channel on the same store reports what was not yet reported', () =>
  withStore(async (store) => {
    const clock = new ManualClock();
    const before = collector();
    const first = new SimulatorChannel({ inbox: store, clock, delayMs: 60_000, log });
    await first.start(before.listener);
    await first.submit([sms(1, ORDINARY), sms(2, FAIL), sms(3, SILENT), business(4, ORDINARY)]);
    await first.stop(); // the process dies before any report was due
    assert.equal(before.all().length, 0);

    clock.t += 60_000; // the reports are due by the time it comes back
    const after = collector();
    const second = new SimulatorChannel({ inbox: store, clock, delayMs: 60_000, log });
    await second.start(after.listener);
    try {
      await until(() => after.all().length >= 4, 'the re-scheduled reports');
      await settle();
      const got = after
        .all()
        .map((r) => `${r.upstreamId}:${r.status}`)
        .sort();
      assert.deepEqual(got, ['sim-1:delivered', 'sim-2:failed', 'sim-4:delivered', 'sim-4:sent']);
      assert.deepEqual(await store.pendingInboxReports(), []);
      // A resubmission after the restart (the dispatcher's lease ran out) is still one delivery.
      await second.submit([sms(1, ORDINARY)]);
      assert.equal(second.duplicates, 1);
    } finally {
      await second.stop();
    }

    // A third start has nothing left to report.
    const third = collector();
    const again = new SimulatorChannel({ inbox: store, clock, delayMs: 60_000, log });
    await again.start(third.listener);
    await settle();
    await again.stop();
    assert.equal(third.all().length, 0);
  }));

test('a listener that throws leaves the entries unreported, for the next start', () =>
  withStore(async (store) => {
    const clock = new ManualClock();
    let calls = 0;
    const failing = async () => {
      calls++;
      throw new Error('database is locked');
    };
    const first = new SimulatorChannel({ inbox: store, clock, delayMs: 0, log });
    await first.start(failing);
    await first.submit([sms(1, ORDINARY), sms(2, FAIL)]);
    await until(() => calls >= 1, 'the failing listener');
    await settle();
    await first.stop();
    const pending = await store.pendingInboxReports();
    assert.deepEqual(
      pending.map((e) => [e.messageRef, e.reported]),
      [
        [1, false],
        [2, false],
      ],
    );

    const reports = collector();
    const second = new SimulatorChannel({ inbox: store, clock, delayMs: 0, log });
    await second.start(reports.listener);
    try {
      await until(() => reports.all().length >= 2, 'the reports on the next start');
      assert.deepEqual(
        reports
          .all()
          .map((r) => r.upstreamId)
          .sort(),
        ['sim-1', 'sim-2'],
      );
    } finally {
      await second.stop();
    }
  }));

test('stop() drops pending reports', () =>
  withStore(async (store) => {
    const reports = collector();
    const clock = new ManualClock();
    const ch = new SimulatorChannel({ inbox: store, clock, delayMs: 5, log });
    await ch.start(reports.listener);
    await ch.submit([sms(1, ORDINARY)]);
    await ch.stop();
    clock.t += 1000;
    await settle();
    assert.equal(reports.all().length, 0);
    assert.equal((await store.pendingInboxReports()).length, 1);
  }));
