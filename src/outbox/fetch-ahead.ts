/**
 * How far an endpoint's lane claims ahead of its sends. A claim is a write: under load it waits
 * for the write lock behind the main thread's transactions, several milliseconds each, so a lane
 * that holds only what it sends in a moment runs dry between claims and its events fall behind
 * the receipts that make them (bench/RESULTS.md, session 28). A lane that holds far more than it
 * sends within its lease would keep deliveries past it. So a lane holds what it sent in the last
 * AHEAD_MS at its recent rate, at least twice and at most eight times its concurrency: a slow
 * receiver keeps the old depth (two rounds of attempts), a fast one gets a quarter second's worth.
 */
export const AHEAD_MS = 250;

/** How often the rate is taken: the sends counted over at least this long. */
const RATE_WINDOW_MS = 100;

export class SendRate {
  private windowStart: number;
  private count = 0;
  private perMs = 0;

  constructor(now: number) {
    this.windowStart = now;
  }

  /** One attempt finished at `now`. */
  sent(now: number): void {
    this.count++;
    const span = now - this.windowStart;
    if (span < RATE_WINDOW_MS) return;
    this.perMs = this.count / span;
    this.count = 0;
    this.windowStart = now;
  }

  /** How many deliveries the lane may hold, in flight and queued. */
  ahead(concurrency: number): number {
    const wanted = Math.ceil(this.perMs * AHEAD_MS);
    return Math.min(8 * concurrency, Math.max(2 * concurrency, wanted));
  }
}
