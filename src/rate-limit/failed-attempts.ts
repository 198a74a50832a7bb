/**
 * Failed authentications counted per source address, on this node: past `allowed` failures
 * within `windowMs` the address is refused without a check until its oldest counted failure
 * leaves the window. Guessing keys or passwords then costs the guesser, not the gateway, while
 * callers from other addresses are not slowed at all (docs/security.md).
 */
export interface FailedAttemptsOptions {
  allowed: number;
  windowMs: number;
  now: () => number;
  /** Addresses kept at most; past it the oldest are let go (memory stays bounded). */
  maxAddresses?: number;
}

export class FailedAttempts {
  /** Failure times per address, oldest first, within the window. */
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly o: FailedAttemptsOptions) {}

  /** How long the address stays refused, in ms; 0 when it may try. */
  blockedFor(address: string): number {
    const recent = this.recent(address);
    if (recent.length < this.o.allowed) return 0;
    // recent holds at least `allowed` entries (checked above).
    const oldest = recent[recent.length - this.o.allowed] as number;
    return Math.max(1, oldest + this.o.windowMs - this.o.now());
  }

  /** Failures of the address within the window. */
  failuresOf(address: string): number {
    return this.recent(address).length;
  }

  /** Counts a failure; true when this one made the address refused (a lockout begins). */
  failed(address: string): boolean {
    const recent = this.recent(address);
    recent.push(this.o.now());
    // A Map keeps insertion order: re-inserting moves the address to the newest end.
    this.failures.delete(address);
    this.failures.set(address, recent);
    const max = this.o.maxAddresses ?? 10_000;
    if (this.failures.size > max) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
    return recent.length === this.o.allowed;
  }

  private recent(address: string): number[] {
    const since = this.o.now() - this.o.windowMs;
    const list = (this.failures.get(address) ?? []).filter((t) => t > since);
    if (list.length === 0) this.failures.delete(address);
    return list;
  }
}
