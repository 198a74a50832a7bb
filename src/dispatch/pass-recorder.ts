import type { SubmitOutcome } from '../domain/messages/message.js';
import type { RecordGate } from './record-gate.js';

export interface PassRecorderParts {
  record(outcomes: readonly SubmitOutcome[], now: number): Promise<void>;
  now(): number;
  gate?: RecordGate;
  /** Outcomes recorded at once at most; more are recorded without waiting for the next turn. */
  atMost: number;
}

/**
 * Records a dispatch pass's outcomes as the channel answers them, not once the whole pass is
 * answered: killed mid-pass, a node then resends only what was truly in flight (handed upstream,
 * its answer not yet recorded), not every message the pass had claimed. Answers that come in
 * one turn of the event loop are recorded together, so a channel that answers a window at once
 * costs one record, as before.
 */
export class PassRecorder {
  private waiting: SubmitOutcome[] = [];
  private readonly records: Promise<void>[] = [];
  private scheduled = false;

  constructor(private readonly o: PassRecorderParts) {}

  /** Held at the gate at once (a report may already be on its way), recorded soon after. */
  add(outcomes: readonly SubmitOutcome[]): void {
    if (outcomes.length === 0) return;
    this.o.gate?.hold(outcomes);
    this.waiting.push(...outcomes);
    if (this.waiting.length >= this.o.atMost) this.flush();
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Every outcome added is recorded (or its record failed, which this then throws). */
  async done(): Promise<void> {
    this.flush();
    const settled = await Promise.allSettled(this.records);
    const failed = settled.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private flush(): void {
    this.scheduled = false;
    if (this.waiting.length === 0) return;
    const batch = this.waiting;
    this.waiting = [];
    // Released recorded or not: a report never waits on a record that failed.
    const recorded = this.o.record(batch, this.o.now()).finally(() => this.o.gate?.release(batch));
    this.records.push(recorded);
    // Failures are thrown by done(); until then the promise must not count as unhandled.
    recorded.catch(() => undefined);
  }
}
