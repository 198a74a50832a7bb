import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * Gives memory back once the gateway goes quiet. V8 shrinks its young generation only in a
 * collection that runs while little is being allocated, and a quiet process allocates too little
 * to start one: a gateway that has started, or has just carried a burst, keeps a young
 * generation of 32 MB it no longer uses until its next busy spell. One full collection after a
 * quiet spell hands it back (an idle `wirebird serve`: 124 MB before, 91 MB after;
 * bench/RESULTS.md, session 26). It runs once per quiet spell: busy again re-arms it.
 */
export interface IdleGcOptions {
  /** How often the event loop's use is read. */
  everyMs: number;
  /** An interval whose share of busy loop time is under this counts as quiet. */
  quietBelow: number;
  /** Quiet intervals in a row before the collection. */
  quietIntervals: number;
  /** A full collection. */
  collect: () => void;
  /** The loop's busy share since the last call (performance.eventLoopUtilization by default). */
  busyShare?: () => number;
}

export const IDLE_GC: Omit<IdleGcOptions, 'collect'> = {
  everyMs: 5_000,
  quietBelow: 0.02,
  // V8 judges its allocation rate over the last 5 s: two quiet intervals clear startup's.
  quietIntervals: 2,
};

/** Starts watching for quiet spells; the timer never keeps the process alive. */
export function startIdleGc(o: IdleGcOptions): { stop(): void } {
  const busyShare = o.busyShare ?? loopBusyShare();
  let quiet = 0;
  // Starting up counts as a busy spell: its garbage is what the first collection returns.
  let armed = true;
  const timer = setInterval(() => {
    if (busyShare() >= o.quietBelow) {
      quiet = 0;
      armed = true;
      return;
    }
    quiet++;
    if (armed && quiet >= o.quietIntervals) {
      armed = false;
      o.collect();
    }
  }, o.everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/** The main thread's event-loop utilization over each interval between calls. */
function loopBusyShare(): () => number {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const share = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return share;
  };
}

/**
 * V8's full collection. Node.js exposes it only under --expose-gc; the flag set now reaches
 * contexts made after it, so a new context hands the function over without a flag on the
 * command line (and without a global `gc` in the gateway's own context).
 */
export function fullCollection(): () => void {
  // globalThis has a `gc` only under --expose-gc; its type says nothing of it.
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed !== 'function') setFlagsFromString('--expose-gc');
  const gc: unknown = typeof exposed === 'function' ? exposed : runInNewContext('gc');
  if (typeof gc !== 'function') return () => undefined;
  // V8's gc() takes no argument it needs and answers nothing the caller reads.
  return () => void Reflect.apply(gc, undefined, []);
}
