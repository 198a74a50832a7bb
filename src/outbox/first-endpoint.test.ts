import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pino } from 'pino';
import { ManualTime } from '../../test/helpers/manual-time.js';
import { ENDPOINT_CHECK_MS, StartOnFirstEndpoint } from './first-endpoint.js';

/** A starter over a store that has `endpoints` endpoints, counting starts and stops. */
function starter(o: { endpoints: number; failStarts?: number }) {
  const time = new ManualTime();
  const counts = { starts: 0, stops: 0, checks: 0, endpoints: o.endpoints };
  let failures = o.failStarts ?? 0;
  const lazy = new StartOnFirstEndpoint({
    start: async () => {
      counts.starts++;
      if (failures-- > 0) throw new Error('the thread did not start');
    },
    anyEndpoint: async () => {
      counts.checks++;
      return counts.endpoints > 0;
    },
    scheduler: time,
    log: pino({ level: 'silent' }),
  });
  const stop = () =>
    lazy.stop(async () => {
      counts.stops++;
    });
  return { time, counts, lazy, stop };
}

describe('event delivery starts with the first endpoint', () => {
  it('starts at once when an endpoint exists, and checks no more', async () => {
    const { time, counts, lazy, stop } = starter({ endpoints: 1 });
    await lazy.start();
    assert.equal(counts.starts, 1);
    assert.equal(time.scheduled, 0);
    lazy.wanted();
    await stop();
    assert.deepEqual([counts.starts, counts.stops], [1, 1]);
  });

  it('without one, waits; an endpoint created elsewhere starts it at the next check', async () => {
    const { time, counts, lazy, stop } = starter({ endpoints: 0 });
    await lazy.start();
    await time.advance(ENDPOINT_CHECK_MS * 3);
    assert.deepEqual([counts.starts, counts.checks], [0, 4]);
    counts.endpoints = 1;
    await time.advance(ENDPOINT_CHECK_MS);
    assert.equal(counts.starts, 1);
    assert.equal(time.scheduled, 0, 'no check once started');
    await stop();
    assert.equal(counts.stops, 1);
  });

  it('an endpoint created through this node starts it without waiting for a check', async () => {
    const { time, counts, lazy, stop } = starter({ endpoints: 0 });
    await lazy.start();
    lazy.wanted();
    lazy.wanted();
    await time.advance(0);
    assert.equal(counts.starts, 1);
    assert.equal(time.scheduled, 0);
    await stop();
    assert.equal(counts.stops, 1);
  });

  it('stops nothing it never started, and starts nothing once stopped', async () => {
    const { time, counts, lazy, stop } = starter({ endpoints: 0 });
    await lazy.start();
    await stop();
    counts.endpoints = 1;
    lazy.wanted();
    await time.advance(ENDPOINT_CHECK_MS * 2);
    assert.deepEqual([counts.starts, counts.stops], [0, 0]);
  });

  it('a check the store answers after the stop starts nothing', async () => {
    const time = new ManualTime();
    let starts = 0;
    const answers: ((yes: boolean) => void)[] = [];
    let calls = 0;
    const lazy = new StartOnFirstEndpoint({
      start: async () => {
        starts++;
      },
      // The boot's check answers at once (none); the next one waits for the test to answer it.
      anyEndpoint: () =>
        calls++ === 0
          ? Promise.resolve(false)
          : new Promise<boolean>((resolve) => answers.push(resolve)),
      scheduler: time,
      log: pino({ level: 'silent' }),
    });
    await lazy.start();
    await time.advance(ENDPOINT_CHECK_MS);
    assert.equal(answers.length, 1, 'a check under way');
    await lazy.stop(async () => undefined);
    answers[0]?.(true);
    await time.advance(0);
    assert.equal(starts, 0);
  });

  it('a start that fails is tried again at the next check', async () => {
    const { time, counts, lazy, stop } = starter({ endpoints: 0, failStarts: 1 });
    await lazy.start();
    counts.endpoints = 1;
    lazy.wanted();
    await time.advance(0);
    assert.equal(counts.starts, 1);
    await time.advance(ENDPOINT_CHECK_MS);
    assert.equal(counts.starts, 2);
    await stop();
    assert.equal(counts.stops, 1);
  });

  it('a failed start at boot, with an endpoint there, fails the boot', async () => {
    const { lazy } = starter({ endpoints: 1, failStarts: 1 });
    await assert.rejects(lazy.start(), /did not start/);
  });
});
