import type { Clock, Scheduler } from '../../src/domain/ports.js';

interface Periodic {
  every: number;
  next: number;
  run: () => unknown;
  cancelled: boolean;
}

/**
 * A clock and a scheduler a test moves by hand: advance(ms) runs every periodic task that falls
 * due on the way, in time order, and awaits the work each hands back (then lets what it started
 * settle) before the next one.
 */
export class ManualTime implements Clock, Scheduler {
  private readonly tasks: Periodic[] = [];

  constructor(private t = 1_700_000_000_000) {}

  now(): number {
    return this.t;
  }

  every(ms: number, run: () => unknown): { cancel(): void } {
    const task = { every: ms, next: this.t + ms, run, cancelled: false };
    this.tasks.push(task);
    return { cancel: () => (task.cancelled = true) };
  }

  /** How many periodic tasks are still scheduled. */
  get scheduled(): number {
    return this.tasks.filter((t) => !t.cancelled).length;
  }

  /**
   * Moves the clock as a machine that slept would see it: each periodic task that fell due runs
   * once, at the new time, not once per period missed (advance of a day would run a one-second
   * task 86,400 times).
   */
  async jump(ms: number): Promise<void> {
    this.t += ms;
    for (const task of this.tasks.filter((t) => !t.cancelled && t.next <= this.t)) {
      task.next = this.t + task.every;
      await task.run();
      await settle();
    }
    await settle();
  }

  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      const due = this.tasks
        .filter((t) => !t.cancelled && t.next <= end)
        .sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      this.t = due.next;
      due.next += due.every;
      await due.run();
      await settle();
    }
    this.t = end;
    await settle();
  }
}

/** Lets promise chains started by a task run to their end (a few turns of the event loop). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
}
