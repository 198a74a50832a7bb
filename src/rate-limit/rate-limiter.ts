/** A token bucket: `ratePerSecond` sustained, at most one second's worth in a burst. */
export class RateLimiter {
  private tokens: number;
  private last: number;

  constructor(
    private readonly ratePerSecond: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = ratePerSecond;
    this.last = now();
  }

  /** Resolves once `n` messages may go; callers waiting here are the backpressure. */
  async take(n: number): Promise<void> {
    let remaining = n;
    while (remaining > 0) {
      this.refill();
      const k = Math.min(remaining, Math.floor(this.tokens));
      if (k > 0) {
        this.tokens -= k;
        remaining -= k;
        continue;
      }
      const waitMs = Math.ceil(((1 - this.tokens) / this.ratePerSecond) * 1000);
      await new Promise((r) => setTimeout(r, Math.max(1, waitMs)));
    }
  }

  /** Takes one token if there is one now; false (nothing taken) when the bucket is empty. */
  tryTake(): boolean {
    this.refill();
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }

  private refill(): void {
    const t = this.now();
    this.tokens = Math.min(
      this.ratePerSecond,
      this.tokens + ((t - this.last) / 1000) * this.ratePerSecond,
    );
    this.last = t;
  }
}
