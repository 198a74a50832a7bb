/** Draws tokens for a route from a bucket every node shares; answers how many it got. */
export type TakeTokens = (route: string, wanted: number, ratePerSecond: number) => Promise<number>;

/**
 * The route's rate for a whole cluster: every node takes its tokens from one bucket in the
 * store, a window of messages at a time, and waits for the refill when the bucket runs dry.
 * Same interface as the per-process RateLimiter, which a node alone uses.
 */
export class SharedRateLimiter {
  constructor(
    private readonly route: string,
    private readonly ratePerSecond: number,
    private readonly takeTokens: TakeTokens,
    private readonly sleep: (ms: number) => Promise<void> = (ms) =>
      new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Resolves once `n` messages may go; callers waiting here are the backpressure. */
  async take(n: number): Promise<void> {
    let remaining = n;
    while (remaining > 0) {
      remaining -= await this.takeTokens(this.route, remaining, this.ratePerSecond);
      if (remaining <= 0) return;
      // Long enough for what is missing to refill, were this node alone; others may get there first.
      const refillMs = (Math.min(remaining, this.ratePerSecond) / this.ratePerSecond) * 1000;
      await this.sleep(Math.min(1000, Math.max(5, Math.ceil(refillMs))));
    }
  }
}
