import type { Logger } from 'pino';
import type { Channel, SubmitResult } from '../channels/channel.js';
import type { ClaimedMessage, SubmitOutcome } from '../domain/messages/message.js';
import type { Clock } from '../domain/ports.js';
import { retryDelayMs } from './backoff.js';
import { RateLimiter } from '../rate-limit/rate-limiter.js';
import { SharedRateLimiter, type TakeTokens } from '../rate-limit/shared-rate-limiter.js';
import type { RecordGate } from './record-gate.js';
import { PassRecorder } from './pass-recorder.js';

/** The storage calls the worker loop is given; it knows no more of the store than these. */
export interface DispatchStorage {
  claim(now: number, limit: number, leaseMs: number): Promise<ClaimedMessage[]>;
  record(outcomes: readonly SubmitOutcome[], now: number): Promise<void>;
  /** Renews the lease of claims a pass still works on (a slow or rate-limited upstream). */
  extend?(claims: readonly { id: number; attempt: number }[], until: number): Promise<void>;
  /** Given when nodes share the store: route rates then hold for all nodes together. */
  takeTokens?: TakeTokens;
}

/** Told what each submission call took and gave (metrics); the loop does not depend on it. */
export interface DispatchObserver {
  submittedWindow(route: string, seconds: number, outcomes: readonly SubmitOutcome[]): void;
}

export interface DispatchOptions {
  batchSize: number;
  leaseMs: number;
  maxAttempts: number;
  pollMs: number;
  routeTps: number;
  /** Messages handed to a channel at once: the in-flight bound per loop and route. */
  window: number;
  loops: number;
  observer?: DispatchObserver;
}

export interface DispatchCounters {
  claimed: number;
  submitted: number;
  retried: number;
  failed: number;
}

/** What a dispatcher works with. */
export interface DispatcherParts {
  storage: DispatchStorage;
  channels: ReadonlyMap<string, Channel>;
  clock: Clock;
  options: DispatchOptions;
  log: Logger;
  /** The backoff's jitter: Math.random unless a test fixes it. */
  random?: () => number;
  /** Told of each submit from the channel's answer until its outcome is recorded. */
  gate?: RecordGate;
}

/**
 * Claims due messages in batches under a lease, hands them to their route's channel at the
 * route's rate, and records each outcome. A message whose worker died is claimed again when its
 * lease expires: submission is at-least-once, and channels recognise a resubmission by its id.
 */
export class Dispatcher {
  readonly counters: DispatchCounters = { claimed: 0, submitted: 0, retried: 0, failed: 0 };
  private readonly limiters = new Map<string, RateLimiter | SharedRateLimiter>();
  private running = false;
  /** Messages claimed by a pass that has not recorded them yet: what a stop waits for. */
  private inHand = 0;
  private loops: Promise<void>[] = [];
  private wake: (() => void) | undefined;
  private wakeup: Promise<void> | undefined;
  /** Set by a nudge that found no loop idle: the next idle() returns at once instead. */
  private nudged = false;
  private readonly gate: RecordGate | undefined;

  private readonly storage: DispatchStorage;
  private readonly channels: ReadonlyMap<string, Channel>;
  private readonly clock: Clock;
  private readonly options: DispatchOptions;
  private readonly log: Logger;
  private readonly random: () => number;

  constructor(parts: DispatcherParts) {
    ({ storage: this.storage, channels: this.channels, clock: this.clock } = parts);
    ({ options: this.options, log: this.log } = parts);
    this.random = parts.random ?? Math.random;
    this.gate = parts.gate;
  }

  start(): void {
    this.running = true;
    this.loops = Array.from({ length: this.options.loops }, () => this.loop());
  }

  /** New work was stored: idle loops look now rather than at the next poll. */
  nudge(): void {
    this.nudged = true;
    this.wake?.();
  }

  /** Stops claiming; the messages in hand are submitted and recorded before it returns. */
  async stop(): Promise<void> {
    this.running = false;
    this.nudge();
    this.log.info({ inFlight: this.inHand }, 'dispatcher stopping: finishing the messages in hand');
    await Promise.all(this.loops);
    this.log.info({ submitted: this.counters.submitted }, 'dispatcher stopped');
  }

  private async loop(): Promise<void> {
    while (this.running) {
      try {
        this.nudged = false;
        const claimed = await this.storage.claim(
          this.clock.now(),
          this.options.batchSize,
          this.options.leaseMs,
        );
        if (claimed.length === 0) {
          await this.idle();
          continue;
        }
        this.counters.claimed += claimed.length;
        this.inHand += claimed.length;
        const recorder = new PassRecorder({
          record: (outcomes, now) => this.storage.record(outcomes, now),
          now: () => this.clock.now(),
          ...(this.gate ? { gate: this.gate } : {}),
          atMost: this.options.batchSize,
        });
        try {
          await this.whileLeased(claimed, () => this.submitAll(claimed, recorder));
        } finally {
          // Recorded as answered; what is left is recorded before the next claim.
          try {
            await recorder.done();
          } finally {
            this.inHand -= claimed.length;
          }
        }
      } catch (err) {
        // The lease brings anything claimed here back; pause so a broken store is not spun on.
        this.log.error({ err }, 'dispatch pass failed');
        await this.idle();
      }
    }
  }

  /**
   * Runs a pass while renewing its claims' lease every third of it: a pass that waits on a rate
   * limit longer than the lease must not see its messages claimed and sent a second time.
   */
  private async whileLeased<T>(
    claimed: readonly ClaimedMessage[],
    pass: () => Promise<T>,
  ): Promise<T> {
    const storage = this.storage;
    if (!storage.extend) return pass();
    const claims = claimed.map((m) => ({ id: m.id, attempt: m.attempts }));
    const renew = () => {
      storage
        .extend?.(claims, this.clock.now() + this.options.leaseMs)
        .catch((err: unknown) => this.log.warn({ err }, 'lease renewal failed'));
    };
    const timer = setInterval(renew, Math.max(1, Math.floor(this.options.leaseMs / 3)));
    try {
      return await pass();
    } finally {
      clearInterval(timer);
    }
  }

  private idle(): Promise<void> {
    if (!this.running || this.nudged) {
      this.nudged = false;
      return Promise.resolve();
    }
    this.wakeup ??= new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake = undefined;
        this.wakeup = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs);
      this.wake = done;
    });
    return this.wakeup;
  }

  private async submitAll(
    claimed: ClaimedMessage[],
    recorder: PassRecorder,
  ): Promise<SubmitOutcome[]> {
    const abandoned: SubmitOutcome[] = [];
    const byRoute = new Map<string, ClaimedMessage[]>();
    for (const m of claimed) {
      if (m.attempts > this.options.maxAttempts) {
        abandoned.push(this.abandon(m));
        continue;
      }
      const list = byRoute.get(m.route);
      if (list) list.push(m);
      else byRoute.set(m.route, [m]);
    }
    recorder.add(abandoned);
    const groups = await Promise.all(
      [...byRoute].map(([route, list]) => this.submitRoute(route, list, recorder)),
    );
    return [...abandoned, ...groups.flat()];
  }

  /**
   * A message claimed past maxAttempts. Retries alone stop at the bound, so its last claims ended
   * without an outcome: the gateway stopped while submitting it (or the bound was lowered). One
   * that kills the process when submitted would otherwise do so at every restart, forever.
   */
  private abandon(m: ClaimedMessage): SubmitOutcome {
    this.counters.failed++;
    const { maxAttempts } = this.options;
    this.log.error({ id: m.id, attempts: m.attempts, maxAttempts }, 'message abandoned');
    const desc = `not submitted: attempt ${m.attempts} is past maxAttempts (${maxAttempts})`;
    return { id: m.id, attempt: m.attempts, kind: 'failed', code: 'ABANDONED', desc };
  }

  private async submitRoute(
    route: string,
    messages: ClaimedMessage[],
    recorder: PassRecorder,
  ): Promise<SubmitOutcome[]> {
    const channel = this.channels.get(route);
    if (!channel) {
      const none: SubmitResult = {
        kind: 'retry',
        code: 'NOROUTE',
        desc: `no channel is configured for route ${route}`,
      };
      const outcomes = messages.map((m) => this.outcomeOf(m, none));
      recorder.add(outcomes);
      return outcomes;
    }
    const outcomes: SubmitOutcome[] = [];
    for (let i = 0; i < messages.length; i += this.options.window) {
      const chunk = messages.slice(i, i + this.options.window);
      await this.limiter(route).take(chunk.length);
      const started = performance.now();
      const done = await this.submitChunk(channel, chunk, recorder);
      this.options.observer?.submittedWindow(route, (performance.now() - started) / 1000, done);
      outcomes.push(...done);
    }
    return outcomes;
  }

  /**
   * One window to its channel, each outcome given to the recorder as its answer comes (a
   * channel that tells them one by one), else all together once the channel answers.
   */
  private async submitChunk(
    channel: Channel,
    chunk: readonly ClaimedMessage[],
    recorder: PassRecorder,
  ): Promise<SubmitOutcome[]> {
    const done: (SubmitOutcome | undefined)[] = chunk.map(() => undefined);
    const take = (j: number, r: SubmitResult | undefined) => {
      const m = chunk[j];
      if (!m || done[j]) return;
      const o = this.outcomeOf(m, r);
      done[j] = o;
      // Held at the gate at once: a report the channel already has in flight must find it.
      recorder.add([o]);
    };
    // Through a promise so that a channel throwing synchronously is caught like one rejecting.
    const results = await Promise.resolve()
      .then(() => channel.submit(chunk, take))
      .catch((err: unknown): SubmitResult[] => {
        this.log.error({ err, route: channel.name }, 'channel submit threw');
        return chunk.map(() => ({
          kind: 'retry',
          code: 'CHANNEL',
          desc: 'the channel failed; retrying',
        }));
      });
    const rest = chunk.map((_, j) => j).filter((j) => !done[j]);
    const late = rest.map((j) => {
      // j runs over the chunk's own indexes.
      const m = chunk[j] as ClaimedMessage;
      const o = this.outcomeOf(m, results[j]);
      done[j] = o;
      return o;
    });
    recorder.add(late);
    return done.filter((o): o is SubmitOutcome => o !== undefined);
  }

  private outcomeOf(m: ClaimedMessage, r: SubmitResult | undefined): SubmitOutcome {
    const result: SubmitResult = r ?? {
      kind: 'retry',
      code: 'NORESULT',
      desc: 'the channel gave no result',
    };
    if (result.kind === 'accepted') {
      this.counters.submitted++;
      return {
        id: m.id,
        attempt: m.attempts,
        kind: 'submitted',
        route: m.route,
        upstream: result.upstream ?? '',
        upstreamId: result.upstreamId,
        ...(result.parts && result.parts.length > 1 ? { parts: result.parts } : {}),
      };
    }
    if (result.kind === 'retry' && m.attempts < this.options.maxAttempts) {
      this.counters.retried++;
      const delay = retryDelayMs(m.attempts, this.random, result.retryAfterMs);
      return {
        id: m.id,
        attempt: m.attempts,
        kind: 'retry',
        dueAt: this.clock.now() + delay,
        code: result.code,
        desc: result.desc,
      };
    }
    this.counters.failed++;
    const desc =
      result.kind === 'retry'
        ? `gave up after ${m.attempts} attempts: ${result.desc}`
        : result.desc;
    return { id: m.id, attempt: m.attempts, kind: 'failed', code: result.code, desc };
  }

  private limiter(route: string): RateLimiter | SharedRateLimiter {
    let l = this.limiters.get(route);
    if (!l) {
      const { takeTokens } = this.storage;
      l = takeTokens
        ? new SharedRateLimiter(route, this.options.routeTps, takeTokens)
        : new RateLimiter(this.options.routeTps, () => this.clock.now());
      this.limiters.set(route, l);
    }
    return l;
  }
}
