import type { Report, SubmitOutcome } from '../domain/messages/message.js';
import { issuedKey } from '../domain/messages/upstream-ids.js';

interface Waiter {
  promise: Promise<void>;
  resolve: () => void;
}

/** The upstream ids a submitted outcome can be reported by: the message's, and each part's. */
function keysOf(o: SubmitOutcome): string[] {
  if (o.kind !== 'submitted') return [];
  const ids = o.parts && o.parts.length > 0 ? [o.upstreamId, ...o.parts] : [o.upstreamId];
  return ids.map((id) => issuedKey(o, id));
}

/**
 * A report can come back before its submit is recorded: the simulator answers at once, and an
 * SMSC may send a deliver_sm right behind its submit_sm_resp. Applied then, it would find no
 * submitted message and wait in the store's early-reports table for a late match. The dispatcher
 * holds each submit here from the channel's answer until its outcome is recorded, and the report
 * sink holds back a report for one of them until then: in memory, for every channel alike.
 */
export class RecordGate {
  /** Submits answered and not yet recorded; a waiter once a report asked for one. */
  private readonly pending = new Map<string, Waiter | undefined>();

  hold(outcomes: readonly SubmitOutcome[]): void {
    for (const o of outcomes) for (const k of keysOf(o)) this.pending.set(k, undefined);
  }

  /** After the record (or its failure): reports held for these go on. */
  release(outcomes: readonly SubmitOutcome[]): void {
    for (const o of outcomes) {
      for (const k of keysOf(o)) {
        this.pending.get(k)?.resolve();
        this.pending.delete(k);
      }
    }
  }

  /** Undefined when no report here waits on a submit; else when all those are recorded. */
  whenRecorded(reports: readonly Report[]): Promise<void> | undefined {
    if (this.pending.size === 0) return undefined;
    const waits: Promise<void>[] = [];
    for (const r of reports) {
      const k = issuedKey(r, r.upstreamId);
      if (!this.pending.has(k)) continue;
      let w = this.pending.get(k);
      if (!w) {
        let resolve = () => {};
        const promise = new Promise<void>((done) => (resolve = done));
        w = { promise, resolve };
        this.pending.set(k, w);
      }
      waits.push(w.promise);
    }
    return waits.length === 0 ? undefined : Promise.all(waits).then(() => undefined);
  }
}
