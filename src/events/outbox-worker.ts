import type { Logger } from 'pino';
import type { SecretBox } from '../crypto/secret-box.js';
import type {
  ClaimedDelivery,
  DeliveryResult,
  WebhookEndpoint,
} from '../domain/events/endpoint.js';
import { webhookId } from '../domain/events/event.js';
import { deliveryResult } from '../domain/events/retry.js';
import type { Clock, WebhookStore } from '../domain/ports.js';
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
  /** While it is failing, when it may be probed again; undefined once an attempt succeeds. */
  probeAt: number | undefined;
}

/**
 * How much a lane may take now. A failing endpoint is probed with one attempt at a time, at
 * most every `probeMs`: its backlog waits in the store instead of spending its retries on a
 * receiver that is down, and drains at full concurrency once a probe succeeds.
 */
function laneRoom(lane: Lane, o: { concurrency: number; now: number }): number {
  if (lane.endpoint.disabled) return 0;
  if (lane.probeAt === undefined) return o.concurrency - lane.inFlight;
  return lane.inFlight === 0 && o.now >= lane.probeAt ? 1 : 0;
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
  private ticking: Promise<void> = Promise.resolve();
  private recording: Promise<void> = Promise.resolve();
  private lastRefresh = -Infinity;
  private readonly sending = new Set<Promise<void>>();

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
    await Promise.all([...this.sending]);
    await this.record();
  }

  /** Looks for due deliveries now rather than at the next poll. */
  nudge(): void {
    if (!this.stopped) this.schedule(0);
  }

  private schedule(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.ticking = this.tick()
        .catch((err: unknown) => {
          this.o.log.error({ err }, 'outbox pass failed');
          return undefined;
        })
        .then((busy) => {
          if (!this.stopped) this.schedule(busy ? 0 : this.o.pollMs);
        });
    }, ms);
  }

  /** One pass over the endpoints; true when a lane filled up (more may be due at once). */
  private async tick(): Promise<boolean> {
    await this.refreshEndpoints();
    let busy = false;
    for (const lane of this.lanes.values()) {
      const now = this.o.clock.now();
      const free = laneRoom(lane, { ...this.o, now });
      if (free <= 0) continue;
      const claimed = await this.o.store.claimDeliveries(
        lane.endpoint.endpointId,
        now,
        free,
        now + this.o.leaseMs,
      );
      for (const d of claimed) this.track(this.attempt(lane, d));
      if (claimed.length === free && lane.probeAt === undefined) busy = true;
    }
    if (this.results.length > 0) await this.record();
    return busy;
  }

  private track(p: Promise<void>): void {
    this.sending.add(p);
    void p.finally(() => this.sending.delete(p));
  }

  private async refreshEndpoints(): Promise<void> {
    const now = this.o.clock.now();
    if (now - this.lastRefresh < ENDPOINTS_REFRESH_MS) return;
    this.lastRefresh = now;
    const endpoints = await this.o.store.listEndpoints(undefined);
    const seen = new Set<string>();
    for (const e of endpoints) {
      seen.add(e.endpointId);
      const lane = this.lanes.get(e.endpointId);
      if (lane) lane.endpoint = e;
      else this.lanes.set(e.endpointId, { endpoint: e, inFlight: 0, probeAt: undefined });
    }
    for (const [id, lane] of this.lanes)
      if (!seen.has(id) && lane.inFlight === 0) this.lanes.delete(id);
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
    }
    if (this.results.length >= RECORD_BATCH) void this.record();
    // A lane half empty takes more at once rather than at the next poll.
    if (lane.inFlight <= this.o.concurrency / 2) this.nudge();
  }

  /** One signed POST; its result waits to be recorded with others. */
  private async deliver(e: WebhookEndpoint, d: ClaimedDelivery): Promise<void> {
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
    if (lane) lane.probeAt = probeAfter(result, this.o.probeMs);
  }

  /** The secrets that sign: the current one, and the previous one during its grace. */
  private secretsOf(e: WebhookEndpoint): string[] {
    const now = this.o.clock.now();
    const sealed = [e.secret];
    if (e.previousSecret && e.previousUntil !== undefined && now < e.previousUntil) {
      sealed.push(e.previousSecret);
    }
    return sealed.map((s) => {
      const plain = this.o.box.open(s);
      if (plain === undefined)
        throw new Error(
          `endpoint ${e.endpointId}: its secret was sealed under another gateway secret`,
        );
      return plain;
    });
  }

  /** Records what came back, one batch at a time, in order. */
  private record(): Promise<void> {
    this.recording = this.recording.then(async () => {
      const batch = this.results;
      if (batch.length === 0) return;
      this.results = [];
      try {
        await this.o.store.recordDeliveries(batch, this.o.clock.now() - this.o.disableAfterMs);
      } catch (err) {
        // Unrecorded attempts are due again when their lease ends: sent twice, never lost.
        this.o.log.error({ err, results: batch.length }, 'webhook attempts not recorded');
      }
    });
    return this.recording;
  }
}
