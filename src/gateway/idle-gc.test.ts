import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fullCollection, startIdleGc } from './idle-gc.js';

/** Runs the watcher over a script of busy shares, one per interval; answers when it collected. */
async function collectionsOver(shares: number[]): Promise<number[]> {
  const at: number[] = [];
  let i = 0;
  // The watcher's own timer is unref'd: this one keeps the test's process up meanwhile.
  const alive = setInterval(() => undefined, 1000);
  await new Promise<void>((done) => {
    const watcher = startIdleGc({
      everyMs: 1,
      quietBelow: 0.02,
      quietIntervals: 2,
      collect: () => at.push(i - 1),
      busyShare: () => {
        const share = shares[i++];
        if (i >= shares.length) {
          watcher.stop();
          setImmediate(done);
        }
        return share ?? 0;
      },
    });
  });
  clearInterval(alive);
  return at;
}

describe('the collection after a quiet spell', () => {
  it('runs once two quiet intervals follow start-up, and not again while quiet', async () => {
    assert.deepEqual(await collectionsOver([0.01, 0.01, 0, 0, 0, 0]), [1]);
  });

  it('waits out a busy interval between quiet ones, and runs again after the next busy spell', async () => {
    const shares = [0.01, 0.5, 0.01, 0.01, 0, 0.9, 0.3, 0.01, 0.01, 0];
    assert.deepEqual(await collectionsOver(shares), [3, 8]);
  });

  it('never runs while the loop stays busy', async () => {
    assert.deepEqual(await collectionsOver([0.2, 0.05, 0.02, 0.3]), []);
  });

  it('has a real full collection to call, which frees what nothing holds', () => {
    const gc = fullCollection();
    // Nothing holds the array once the function has returned.
    const made = (() => Array.from({ length: 200_000 }, (_, n) => ({ n })).length)();
    const withGarbage = process.memoryUsage().heapUsed;
    gc();
    assert.equal(made, 200_000);
    assert.ok(process.memoryUsage().heapUsed < withGarbage - 5_000_000, 'the objects were freed');
  });
});
