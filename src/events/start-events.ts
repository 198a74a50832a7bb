import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { DeliveryResult } from '../domain/events/endpoint.js';
import { parseRetrySchedule } from '../domain/events/retry.js';
import type { Clock, WebhookStore } from '../domain/ports.js';
import { urlProblem } from './address-guard.js';
import { OutboxWorker } from './outbox-worker.js';
import { newWebhookSecret } from './signing.js';
import { WebhookSender } from './webhook-sender.js';

/** What the API's webhook Actions are given (see api/context.ts WebhookDeps). */
export interface EventsDeps {
  box: SecretBox;
  urlProblem(url: string): Promise<string | undefined>;
  newSecret(): string;
  nudge(): void;
}

export interface Events {
  deps: EventsDeps;
  start(): void;
  stop(): Promise<void>;
}

/** The outbox worker and its HTTP sender, built from the config (docs/events.md). */
export function createEvents(o: {
  config: Config;
  store: WebhookStore;
  box: SecretBox;
  clock: Clock;
  log: Logger;
  onAttempt?: (r: DeliveryResult) => void;
}): Events {
  const w = o.config.webhooks;
  const sender = new WebhookSender({
    timeoutMs: w.timeoutMs,
    allowPrivate: w.allowPrivate,
    connections: w.concurrency,
  });
  const worker = new OutboxWorker({
    store: o.store,
    box: o.box,
    send: (url, headers, body) => sender.send(url, headers, body),
    clock: o.clock,
    log: o.log,
    scheduleMs: parseRetrySchedule(w.retrySchedule),
    concurrency: w.concurrency,
    disableAfterMs: w.disableAfterMs,
    pollMs: w.pollMs,
    probeMs: w.probeMs,
    // Past the send timeout with room to record: a live worker's claim never runs out.
    leaseMs: w.timeoutMs * 2 + 5_000,
    random: Math.random,
    ...(o.onAttempt ? { onAttempt: o.onAttempt } : {}),
  });
  return {
    deps: {
      box: o.box,
      urlProblem: (url) => urlProblem(url, { allowPrivate: w.allowPrivate }),
      newSecret: newWebhookSecret,
      nudge: () => worker.nudge(),
    },
    start: () => worker.start(),
    async stop() {
      await worker.stop();
      await sender.close();
    },
  };
}
