import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Passes } from './passes.js';

describe('Passes', () => {
  it('runs one pass at a time, once more after nudges during it, and none after stop', async () => {
    let running = 0;
    let most = 0;
    let runs = 0;
    let release: () => void = () => undefined;
    const passes = new Passes(async () => {
      running++;
      most = Math.max(most, running);
      runs++;
      await new Promise<void>((r) => (release = r));
      running--;
      return false;
    });
    passes.nudge();
    passes.nudge();
    passes.nudge();
    release();
    await new Promise((r) => setImmediate(r));
    release();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual([runs, most], [2, 1], 'three nudges during one pass make one more');
    const stopped = passes.stop();
    passes.nudge();
    release();
    await stopped;
    assert.equal(runs, 2);
  });

  it('goes on while a pass says more is waiting', async () => {
    let left = 3;
    let done: () => void = () => undefined;
    const finished = new Promise<void>((r) => (done = r));
    const passes = new Passes(async () => {
      if (--left === 0) done();
      return left > 0;
    });
    passes.nudge();
    await finished;
    await passes.stop();
    assert.equal(left, 0, 'three passes from one nudge');
  });
});
