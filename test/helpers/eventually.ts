import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `probe` until it returns a value; for background work, never a timing assertion. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  limitMs = 15000,
): Promise<T> {
  const end = Date.now() + limitMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
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
