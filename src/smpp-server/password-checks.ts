/**
 * The password checks of SMPP binds, node-wide (docs/smpp-server.md, "Binds under load"). A check
 * is a deliberately slow scrypt on the thread pool, so a node manages a handful a second; a flood
 * of binds must neither starve a real ESME's bind nor leave binds unanswered:
 *
 * - a few checks run at once; the rest wait in a bounded queue, and a bind that finds it full is
 *   refused at once (`busy`), never left to its bind timeout;
 * - waiting checks go by lane: a system_id that bound from the address before (`known`), then an
 *   address with no recent failure (`clean`), then the rest; a full queue makes room for a better
 *   lane by refusing the newest of a worse one;
 * - a successful check is remembered for a while, keyed by a keyed hash of the password and the
 *   stored hash, so a reconnecting ESME pays no scrypt, and a changed password is checked again.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const LANES = ['known', 'clean', 'other'] as const;
export type Lane = (typeof LANES)[number];

export type CheckResult = 'match' | 'mismatch' | 'busy' | 'dropped';

export interface PasswordCheck {
  systemId: string;
  password: string;
  /** The credential's stored scrypt hash. */
  hash: string;
  lane: Lane;
  /** Whether the bind still waits for its answer: one whose connection closed is not checked. */
  wanted?: () => boolean;
}

export interface PasswordChecksOptions {
  /** Checks running at once. */
  concurrency: number;
  /** Checks waiting at most, all lanes together. */
  capacity: number;
  /** How long a successful check is remembered. */
  rememberMs: number;
  now: () => number;
  verify: (password: string, hash: string) => Promise<boolean>;
  /** Successful checks remembered at most (the oldest let go). */
  maxRemembered?: number;
}

interface Waiting {
  check: PasswordCheck;
  settle: (r: CheckResult) => void;
}

export class PasswordChecks {
  private running = 0;
  private readonly queues: Record<Lane, Waiting[]> = { known: [], clean: [], other: [] };
  /** system_id → the keyed hash of its password and stored hash, and until when it holds. */
  private readonly remembered = new Map<string, { digest: Buffer; until: number }>();
  /** A key of this process only: what is remembered cannot be tried against anything else. */
  private readonly key = randomBytes(32);

  constructor(private readonly o: PasswordChecksOptions) {}

  /** How many checks wait now. */
  get waiting(): number {
    return LANES.reduce((n, lane) => n + this.queues[lane].length, 0);
  }

  check(c: PasswordCheck): Promise<CheckResult> {
    if (this.recalls(c)) return Promise.resolve('match');
    if (this.running < this.o.concurrency) return this.run(c);
    if (this.waiting >= this.o.capacity && !this.makeRoomFor(c.lane)) {
      return Promise.resolve('busy');
    }
    return new Promise((settle) => this.queues[c.lane].push({ check: c, settle }));
  }

  /** Refuses the newest waiting check of a lane worse than `lane`; false when there is none. */
  private makeRoomFor(lane: Lane): boolean {
    for (const worse of [...LANES].reverse()) {
      if (worse === lane) return false;
      const evicted = this.queues[worse].pop();
      if (evicted) {
        evicted.settle('busy');
        return true;
      }
    }
    return false;
  }

  private async run(c: PasswordCheck): Promise<CheckResult> {
    this.running++;
    try {
      // A stored hash that cannot be read matches nothing, as a wrong password does.
      const ok = await this.o.verify(c.password, c.hash).catch(() => false);
      if (ok) this.remember(c);
      return ok ? 'match' : 'mismatch';
    } finally {
      this.running--;
      this.next();
    }
  }

  /** Starts the best waiting check whose bind still wants it; drops the ones that do not. */
  private next(): void {
    while (this.running < this.o.concurrency) {
      const lane = LANES.find((l) => this.queues[l].length > 0);
      const w = lane && this.queues[lane].shift();
      if (!w) return;
      if (w.check.wanted && !w.check.wanted()) {
        w.settle('dropped');
        continue;
      }
      void this.run(w.check).then(w.settle);
    }
  }

  private digest(c: PasswordCheck): Buffer {
    return createHmac('sha256', this.key).update(c.hash).update('\0').update(c.password).digest();
  }

  private recalls(c: PasswordCheck): boolean {
    const r = this.remembered.get(c.systemId);
    if (!r || r.until <= this.o.now()) return false;
    return timingSafeEqual(r.digest, this.digest(c));
  }

  private remember(c: PasswordCheck): void {
    this.remembered.delete(c.systemId);
    this.remembered.set(c.systemId, {
      digest: this.digest(c),
      until: this.o.now() + this.o.rememberMs,
    });
    if (this.remembered.size > (this.o.maxRemembered ?? 10_000)) {
      const oldest = this.remembered.keys().next().value;
      if (oldest !== undefined) this.remembered.delete(oldest);
    }
  }
}
