import type { Logger } from 'pino';
import type { SecretBox } from '../crypto/secret-box.js';
import type {
  ClaimedDelivery,
  DeliveryClaim,
  DeliveryResult,
  WebhookEndpoint,
} from '../domain/events/endpoint.js';
import { webhookId } from '../domain/events/event.js';
import { deliveryResult } from '../domain/events/retry.js';
import type { Clock, WebhookStore } from '../domain/ports.js';
import { SendRate } from './fetch-ahead.js';
import { webhookHeaders } from './signing.js';
import type { SendAnswer } from './webhook-sender.js';

export interface OutboxWorkerOptions {
  store: WebhookStore;
  box: SecretBox;
  send: (url: string, headers: Record<string, string>, body: string) => Promise<SendAnswer>;
  clock: Clock;
  log: Logger;
  scheduleMs: readonly number[];
  /** Attempts in flight to one endpoint at once. */
  concurrency: number;
  disableAfterMs: number;
  pollMs: number;
  /** Between probes of a failing endpoint. */
  probeMs: number;
  /** How long a claim holds its deliveries: past the send timeout, so a live worker never loses one. */
  leaseMs: number;
  random: () => number;
  /** Called per attempt, for /metrics. */
  onAttempt?: (r: DeliveryResult) => void;
}

/** An endpoint's lane: its attempts in flight never hold up another endpoint's. */
interface Lane {
  endpoint: WebhookEndpoint;
  inFlight: number;
  /** Claimed and not yet sent: a claim fetches ahead, so sending never waits on the store. */
  queue: ClaimedDelivery[];
  /** While it is failing, when it may be probed again; undefined once an attempt succeeds. */
  probeAt: number | undefined;
  /** The deliveries that failed since the lane last succeeded (at most MAX_HELD). */
  failed: DeliveryClaim[];
  /** Its recent sends a second: how far it claims ahead. */
  rate: SendRate;
}

/** Failures a lane remembers for an early retry when it reopens: the rest wait their step. */
const MAX_HELD = 1024;

/**
 * How much a lane may take now. A failing endpoint is probed with one attempt at a time, at
 * most every `probeMs`: its backlog waits in the store instead of spending its retries on a
 * receiver that is down, and drains at full concurrency once a probe succeeds.
 */
function laneRoom(lane: Lane, o: { concurrency: number; now: number }): number {
  if (lane.endpoint.disabled) return 0;
  if (lane.probeAt === undefined) {
    // Fetched in batches of at least half the concurrency: a claim per attempt would cost more
    // than the attempts.
    const room = lane.rate.ahead(o.concurrency) - lane.inFlight - lane.queue.length;
    return room >= o.concurrency / 2 ? room : 0;
  }
  return lane.inFlight === 0 && lane.queue.length === 0 && o.now >= lane.probeAt ? 1 : 0;
}

/** Whether the lane may start another attempt now. */
function maySend(lane: Lane, concurrency: number, now: number): boolean {
  if (lane.probeAt === undefined) return lane.inFlight < concurrency;
  return lane.inFlight === 0 && now >= lane.probeAt;
}

/** When a lane whose attempt failed is probed next: after probeMs, or its Retry-After. */
function probeAfter(r: DeliveryResult, probeMs: number): number | undefined {
  if (r.state === 'delivered') return undefined;
  const busy = r.statusCode === 429 || r.statusCode === 503;
  return Math.max(r.at + probeMs, busy && r.nextAt !== undefined ? r.nextAt : 0);
}

const ENDPOINTS_REFRESH_MS = 1000;
const RECORD_BATCH = 512;

/**
 * Delivers the outbox: per enabled endpoint, claims due deliveries up to its free concurrency,
 * signs and POSTs each, and records the results in batches. Anything claimed and not recorded
 * (a crash) is due again when its lease ends: at least once, never lost.
 */
export class OutboxWorker {
  private readonly lanes = new Map<string, Lane>();
  private results: DeliveryResult[] = [];
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  private passing = false;
  private again = false;
  private ticking: Promise<void> = Promise.resolve();
  private recording: Promise<void> = Promise.resolve();
  private lastRefresh = -Infinity;
  /** An endpoint changed on this node (a rotated secret, say): read them before the next send. */
  private stale = false;
  private readonly sending = new Set<Promise<void>>();
  /** Sealed secret → the secret, for the endpoints' current and previous secrets. */
  private readonly opened = new Map<string, string>();
  /** Deliveries to make due now once the results before them are recorded. */
  private toRelease: DeliveryClaim[] = [];
  /**
   * When each queued delivery must have started: half its lease, so that its attempt (at most the
   * send timeout, under half the lease) ends before the lease does. One queued longer (a receiver
   * that slowed down with a lane full) is handed back, due at once, rather than sent twice.
   */
  private readonly sendBy = new WeakMap<ClaimedDelivery, number>();
  /** Deliveries given their early retry after an outage: each gets one (bounded, then reset). */
  private readonly retriedEarly = new Set<string>();

  constructor(private readonly o: OutboxWorkerOptions) {}

  start(): void {
    this.stopped = false;
    this.schedule(0);
  }

  /** Stops claiming, lets attempts in flight finish and records them. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.ticking;
    // What was fetched and not sent is handed back, due at once for whichever node runs next.
    for (const lane of this.lanes.values()) {
      this.toRelease.push(...lane.queue);
      lane.queue.length = 0;
    }
    await Promise.all([...this.sending]);
    await this.record();
  }

  /** Looks for due deliveries now rather than at the next poll. */
  nudge(): void {
    if (!this.stopped) this.schedule(0);
  }

  /**
   * An endpoint was created, changed, rotated or deleted: read them again before the next
   * delivery is signed, so that a rotated secret signs at once (other nodes within a refresh).
   */
  endpointsChanged(): void {
    this.stale = true;
    this.nudge();
  }

  /**
   * One pass at a time: a nudge during a pass asks for another right after it, so two passes
   * never claim for the same lane at once.
   */
  private schedule(ms: number): void {
    if (this.passing) {
      this.again = true;
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.passing = true;
      this.ticking = this.tick()
        .catch((err: unknown) => {
          this.o.log.error({ err }, 'outbox pass failed');
          return this.o.pollMs;
        })
        .then((nextMs) => {
          this.passing = false;
          const again = this.again;
          this.again = false;
          if (!this.stopped) this.schedule(again ? 0 : nextMs);
        });
    }, ms);
  }

  /**
   * One pass over the endpoints; how long until the next: at once when a lane filled up (more
   * may be due), at the soonest probe of a failing lane, else a poll from now.
   */
  private async tick(): Promise<number> {
    await this.refreshEndpoints();
    let busy = false;
    let nextMs = this.o.pollMs;
    for (const lane of this.lanes.values()) {
      const now = this.o.clock.now();
      const free = laneRoom(lane, { ...this.o, now });
      if (lane.probeAt !== undefined && free <= 0 && lane.probeAt > now)
        nextMs = Math.min(nextMs, lane.probeAt - now);
      if (free <= 0) continue;
      const claimed = await this.o.store.claimDeliveries(
        lane.endpoint.endpointId,
        now,
        free,
        now + this.o.leaseMs,
      );
      for (const d of claimed) this.sendBy.set(d, now + this.o.leaseMs / 2);
      lane.queue.push(...claimed);
      this.pump(lane);
      if (claimed.length === free && lane.probeAt === undefined) busy = true;
    }
    if (this.results.length > 0 || this.toRelease.length > 0) await this.record();
    return busy ? 0 : nextMs;
  }

  private track(p: Promise<void>): void {
    this.sending.add(p);
    void p.finally(() => this.sending.delete(p));
  }

  private async refreshEndpoints(): Promise<void> {
    const now = this.o.clock.now();
    if (!this.stale && now - this.lastRefresh < ENDPOINTS_REFRESH_MS) return;
    this.stale = false;
    this.lastRefresh = now;
    const endpoints = await this.o.store.listEndpoints(undefined);
    const seen = new Set<string>();
    for (const e of endpoints) {
      seen.add(e.endpointId);
      const lane = this.lanes.get(e.endpointId);
      if (lane) lane.endpoint = e;
      else
        this.lanes.set(e.endpointId, {
          endpoint: e,
          inFlight: 0,
          queue: [],
          probeAt: undefined,
          failed: [],
          rate: new SendRate(now),
        });
    }
    for (const [id, lane] of this.lanes)
      if (!seen.has(id) && lane.inFlight === 0) this.lanes.delete(id);
    // Secrets rotated out of every endpoint are let go.
    const current = new Set(endpoints.flatMap((e) => [e.secret, e.previousSecret ?? '']));
    for (const sealed of this.opened.keys()) if (!current.has(sealed)) this.opened.delete(sealed);
  }

  /** Starts the lane's queued deliveries as far as its concurrency (or its probing) allows. */
  private pump(lane: Lane): void {
    while (
      !this.stopped &&
      lane.queue.length > 0 &&
      maySend(lane, this.o.concurrency, this.o.clock.now())
    ) {
      // The condition above checked that the queue is not empty.
      const d = lane.queue.shift() as ClaimedDelivery;
      if (this.o.clock.now() > (this.sendBy.get(d) ?? Infinity)) {
        this.toRelease.push(d);
        if (this.toRelease.length >= RECORD_BATCH) void this.record();
        continue;
      }
      this.track(this.attempt(lane, d));
    }
  }

  private async attempt(lane: Lane, d: ClaimedDelivery): Promise<void> {
    lane.inFlight++;
    try {
      await this.deliver(lane.endpoint, d);
    } catch (err) {
      // Left claimed: due again when its lease ends.
      this.o.log.error({ err, endpointId: d.endpointId, eventId: d.eventId }, 'webhook not sent');
    } finally {
      lane.inFlight--;
      lane.rate.sent(this.o.clock.now());
    }
    if (this.results.length >= RECORD_BATCH) void this.record();
    this.pump(lane);
    // Running low: fetch more now rather than at the next poll.
    if (lane.queue.length < lane.rate.ahead(this.o.concurrency) / 4) this.nudge();
  }

  /** One signed POST; its result waits to be recorded with others. */
  private async deliver(claimedFor: WebhookEndpoint, d: ClaimedDelivery): Promise<void> {
    if (this.stale) await this.refreshEndpoints();
    const e = this.lanes.get(d.endpointId)?.endpoint ?? claimedFor;
    const timestamp = Math.floor(this.o.clock.now() / 1000);
    const msg = { id: webhookId(d.eventId), timestamp, body: d.body };
    const answer = await this.o.send(e.url, webhookHeaders(this.secretsOf(e), msg), d.body);
    const result = deliveryResult(d, answer, {
      scheduleMs: this.o.scheduleMs,
      now: this.o.clock.now(),
      random: this.o.random,
    });
    this.results.push(result);
    this.o.onAttempt?.(result);
    const lane = this.lanes.get(e.endpointId);
    if (lane) {
      const wasFailing = lane.probeAt !== undefined;
      lane.probeAt = probeAfter(result, this.o.probeMs);
      if (result.state === 'pending' && lane.failed.length < MAX_HELD) {
        // The claim, not the body: up to MAX_HELD of them wait for the lane to reopen.
        lane.failed.push({ eventId: d.eventId, endpointId: d.endpointId, claim: d.claim });
      } else if (result.state === 'delivered' && wasFailing) this.reopened(lane);
      // A failing endpoint keeps nothing queued: what was fetched is due again when its lease
      // ends, not spent on a receiver that is down.
      if (lane.probeAt !== undefined) lane.queue.length = 0;
    }
  }

  /** The secrets that sign: the current one, and the previous one during its grace. */
  private secretsOf(e: WebhookEndpoint): string[] {
    const now = this.o.clock.now();
    const sealed = [e.secret];
    if (e.previousSecret && e.previousUntil !== undefined && now < e.previousUntil) {
      sealed.push(e.previousSecret);
    }
    return sealed.map((s) => {
      // Opened once per secret, not per attempt: AES-GCM per delivery is measurable at 10k/s.
      const cached = this.opened.get(s);
      if (cached !== undefined) return cached;
      const plain = this.o.box.open(s);
      if (plain !== undefined) this.opened.set(s, plain);
      if (plain === undefined)
        throw new Error(
          `endpoint ${e.endpointId}: its secret was sealed under another gateway secret`,
        );
      return plain;
    });
  }

  /**
   * A failing lane answered again: what failed during the outage is retried now rather than
   * after its step (the second step is minutes). Only after an outage, when two or more
   * attempts failed before an attempt succeeded, and once per delivery: one event a receiver
   * refuses on its own merits (one failure, then the next event succeeds) keeps its schedule.
   */
  private reopened(lane: Lane): void {
    const failed = lane.failed;
    lane.failed = [];
    if (failed.length < 2) return;
    if (this.retriedEarly.size > 100 * MAX_HELD) this.retriedEarly.clear();
    // A delivery that failed twice in the outage is released under its latest claim.
    const latest = new Map(failed.map((d) => [`${d.endpointId} ${d.eventId}`, d]));
    for (const [key, d] of latest) {
      if (this.retriedEarly.has(key)) continue;
      this.retriedEarly.add(key);
      this.toRelease.push(d);
    }
  }

  /** Records what came back, one batch at a time, in order; then what is to be due now. */
  private record(): Promise<void> {
    this.recording = this.recording.then(async () => {
      const batch = this.results;
      const release = this.toRelease;
      this.results = [];
      this.toRelease = [];
      try {
        const now = this.o.clock.now();
        if (batch.length > 0)
          await this.o.store.recordDeliveries(batch, now - this.o.disableAfterMs);
        // After the results: a release must not be overwritten by the failure it follows.
        if (release.length > 0 && (await this.o.store.releaseDeliveries(release, now)) > 0) {
          this.nudge();
        }
      } catch (err) {
        // Unrecorded attempts are due again when their lease ends: sent twice, never lost.
        this.o.log.error({ err, results: batch.length }, 'webhook attempts not recorded');
      }
    });
    return this.recording;
  }
}
