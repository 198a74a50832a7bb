import assert from 'node:assert/strict';
import { availableParallelism, loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * How many times slower than an idle machine this one runs now: the load average per core, at
 * least 1. A wait's limit is a guard against a test that hangs, not a claim about speed, so it
 * grows with the load rather than failing a suite on a busy machine.
 */
function slowness(): number {
  return Math.max(1, (loadavg()[0] ?? 0) / availableParallelism());
}

/**
 * Polls `probe` until it returns a value; for background work, never a timing assertion. It
 * gives up after `limitMs` on an idle machine, longer in proportion on a loaded one, and says
 * on stderr when a wait went past `limitMs`, so what is slow shows.
 */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  limitMs = 15000,
): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = await probe();
    const waited = Date.now() - start;
    if (value !== undefined) {
      if (waited > limitMs) process.stderr.write(`slow: ${waited} ms waiting for ${what}\n`);
      return value;
    }
    if (waited > limitMs * slowness()) {
      const load = loadavg()[0]?.toFixed(1) ?? '?';
      throw new Error(`gave up waiting for ${what} (${waited} ms, load ${load})`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Checks `cond` every millisecond, up to `tries` times; for in-process work a test drives. */
export async function until(cond: () => boolean, what: string, tries = 2000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (cond()) return;
    await sleep(1);
  }
  assert.fail(`timed out waiting for ${what}`);
}
