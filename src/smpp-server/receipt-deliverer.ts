/**
 * Delivers the receipts queued for SMPP binds (the outbox's `smpp:<system_id>` deliveries) to
 * the receiver and transceiver binds of that system_id on this node: claimed under a lease as
 * far as the binds' windows allow, spread over the binds, recorded once answered. A receipt waits
 * in the store while no bind of its system_id is up, is sent again when its deliver_sm_resp does
 * not come in time, and is dropped (failed) only past its expiry.
 */
import type { Logger } from 'pino';
import type { ClaimedDelivery, DeliveryResult } from '../domain/events/endpoint.js';
import type { Clock, Scheduler, WebhookStore } from '../domain/ports.js';
import type { EsmeConnection } from './esme-connection.js';
import { moDeliverSm } from './mo-pdu.js';
import { receiptDeliverSm } from './receipt-pdu.js';
import { Passes } from '../util/passes.js';

export interface ReceiptDelivererOptions {
  store: Pick<WebhookStore, 'claimDeliveries' | 'recordDeliveries'>;
  /**
   * This node's receiving binds by the outbox endpoint they take: each system_id's binds its
   * receipts (smpp:<system_id>), each account's binds its replies (smpp-account:<id>).
   */
  binds: () => ReadonlyMap<string, readonly EsmeConnection[]>;
  clock: Clock;
  scheduler: Scheduler;
  log: Logger;
  pollMs: number;
  /** How long a deliver_sm waits for its resp before it counts as unanswered. */
  responseTimeoutMs: number;
  /** A receipt older than this is given up (failed) instead of sent. */
  expiryMs: number;
}

/** Waits before sending an unanswered or refused receipt again: doubling to 10 minutes. */
export function retryWaitMs(attempt: number): number {
  return Math.min(600_000, 5_000 * 2 ** Math.max(0, attempt - 1));
}

export class ReceiptDeliverer {
  private timer: { cancel(): void } | undefined;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly passes = new Passes(() => this.pass());
  /** Answers not yet recorded: written together, one transaction for all that came meanwhile. */
  private results: DeliveryResult[] = [];
  private readonly recording = new Passes(() => this.flush());

  constructor(private readonly o: ReceiptDelivererOptions) {}

  start(): void {
    this.timer = this.o.scheduler.every(this.o.pollMs, () => this.nudge());
  }

  /** Looks for receipts now: a bind came up, or room opened on one. */
  nudge(): void {
    this.passes.nudge();
  }

  async stop(): Promise<void> {
    this.timer?.cancel();
    await this.passes.stop();
    await Promise.all([...this.inFlight]);
    await this.recording.stop();
    await this.flush();
  }

  private async pass(): Promise<boolean> {
    for (const [endpointId, binds] of this.o.binds()) {
      try {
        await this.claimFor(endpointId, binds);
      } catch (err) {
        // What was claimed comes back when its lease ends.
        this.o.log.error({ err, endpointId }, 'SMPP deliveries: a pass failed');
      }
    }
    return false;
  }

  private async claimFor(endpointId: string, binds: readonly EsmeConnection[]): Promise<void> {
    const room = binds.reduce((n, b) => n + Math.max(0, b.room), 0);
    const window = binds.reduce((n, b) => n + (b.credential?.window ?? 0), 0);
    // A claim is a write: taken in batches of half the windows at least, not one per answer.
    if (room === 0 || (room < window / 2 && room !== window)) return;
    const now = this.o.clock.now();
    const lease = now + this.o.responseTimeoutMs * 2 + 5_000;
    const claimed = await this.o.store.claimDeliveries(endpointId, now, room, lease);
    for (const d of claimed) {
      const bind = [...binds].sort((a, b) => b.room - a.room)[0];
      if (!bind || bind.room <= 0) break;
      const sending = this.send(bind, d).finally(() => this.inFlight.delete(sending));
      this.inFlight.add(sending);
    }
  }

  private async send(bind: EsmeConnection, d: ClaimedDelivery): Promise<void> {
    const started = this.o.clock.now();
    // The body is an event this gateway wrote; its fields are checked where read.
    const event = JSON.parse(d.body) as { timestamp?: string; data?: Record<string, unknown> };
    const age = started - Date.parse(event.timestamp ?? '');
    if (age > this.o.expiryMs) {
      return this.record(d, { state: 'failed', error: 'expired before a bind took it', started });
    }
    const data = event.data ?? {};
    const pdu = d.type === 'message.inbound' ? moDeliverSm(data) : receiptDeliverSm(data);
    const status = await bind.deliver(pdu, this.o.responseTimeoutMs);
    if (status === 0) return this.record(d, { state: 'delivered', error: '', started, status });
    const error = status === undefined ? 'no deliver_sm_resp in time' : `deliver_sm_resp ${status}`;
    return this.record(d, { state: 'pending', error, started, status });
  }

  /** Records what came back since the last flush; answers whether more came meanwhile. */
  private async flush(): Promise<boolean> {
    const batch = this.results;
    if (batch.length === 0) return false;
    this.results = [];
    try {
      // No endpoint row to disable: the bind endpoints are not webhook_endpoints.
      await this.o.store.recordDeliveries(batch, 0);
    } catch (err) {
      // Unrecorded: due again when their lease ends, so delivered twice, never lost.
      this.o.log.error({ err, results: batch.length }, 'SMPP deliveries not recorded');
    }
    return this.results.length > 0;
  }

  private async record(
    d: ClaimedDelivery,
    r: { state: DeliveryResult['state']; error: string; started: number; status?: number },
  ): Promise<void> {
    const at = this.o.clock.now();
    const result: DeliveryResult = {
      eventId: d.eventId,
      endpointId: d.endpointId,
      claim: d.claim,
      attempt: d.attempt,
      at,
      statusCode: r.status,
      error: r.error,
      latencyMs: at - r.started,
      state: r.state,
      nextAt: r.state === 'pending' ? at + retryWaitMs(d.attempt) : undefined,
      disable: undefined,
    };
    this.results.push(result);
    this.recording.nudge();
    if (r.state !== 'delivered') {
      this.o.log.warn({ endpoint: d.endpointId, why: r.error }, 'SMPP receipt not delivered');
    }
    // Room opened on the bind: the next receipt need not wait for the poll.
    this.nudge();
  }
}
