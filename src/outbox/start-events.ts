import { readFileSync } from 'node:fs';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import { ConfigError } from '../config/config-error.js';
import type { SecretBox } from '../crypto/secret-box.js';
import { parseRetrySchedule } from '../domain/events/retry.js';
import type { Clock, Scheduler, StoreShare, WebhookStore } from '../domain/ports.js';
import { urlProblem } from './address-guard.js';
import { StartOnFirstEndpoint } from './first-endpoint.js';
import { OutboxThreadHost } from './outbox-host.js';
import type { AttemptSummary } from './outbox-protocol.js';
import { OutboxWorker } from './outbox-worker.js';
import { newWebhookSecret } from './signing.js';
import { WebhookSender } from './webhook-sender.js';
import { errorText } from '../util/unknown-values.js';

/** What the API's webhook Actions and the console are given. */
export interface EventsDeps {
  box: SecretBox;
  urlProblem(url: string): Promise<string | undefined>;
  newSecret(): string;
  nudge(): void;
  /** An endpoint was created, changed, rotated or deleted on this node. */
  endpointsChanged(): void;
}

export interface Events {
  deps: EventsDeps;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** The outbox worker and its HTTP sender on a store, as the config says (docs/events.md). */
export function buildOutbox(o: {
  config: Config;
  store: WebhookStore;
  box: SecretBox;
  clock: Clock;
  log: Logger;
  onAttempt: (a: AttemptSummary) => void;
}): { worker: OutboxWorker; sender: WebhookSender } {
  const w = o.config.webhooks;
  const sender = new WebhookSender({
    timeoutMs: w.timeoutMs,
    allowPrivate: w.allowPrivate,
    connections: w.concurrency,
    ...(w.caFile === undefined ? {} : { ca: trustedCa(w.caFile) }),
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
    onAttempt: (r) =>
      o.onAttempt({ state: r.state, gone: r.disable !== undefined, latencyMs: r.latencyMs }),
  });
  return { worker, sender };
}

/**
 * Event delivery: in a thread of its own (webhooks.thread, the default), on a store connection
 * of its own; or on the main thread. Either way the API nudges it the same.
 */
export function createEvents(o: {
  config: Config;
  store: WebhookStore;
  box: SecretBox;
  /** The gateway secret the thread opens the signing secrets with. */
  secret: string;
  /** What the outbox thread opens its own store connection with. */
  share: StoreShare | undefined;
  /** Frees what a dead outbox thread held of the share (its write lock on SQLite). */
  onThreadEnded?(threadId: number): void;
  clock: Clock;
  /** Looks for a first endpoint where the thread waits for one. */
  scheduler: Scheduler;
  log: Logger;
  onAttempt: (a: AttemptSummary) => void;
}): Events {
  // Read here too, on the main thread: a bad file stops the start before the gateway listens.
  if (o.config.webhooks.caFile !== undefined) trustedCa(o.config.webhooks.caFile);
  const allowPrivate = o.config.webhooks.allowPrivate;
  const deps = (worker: Pick<EventsDeps, 'nudge' | 'endpointsChanged'>): EventsDeps => ({
    box: o.box,
    urlProblem: (url) => urlProblem(url, { allowPrivate }),
    newSecret: newWebhookSecret,
    nudge: () => worker.nudge(),
    endpointsChanged: () => worker.endpointsChanged(),
  });
  if (o.config.webhooks.thread) return threadEvents(o, deps);
  const { worker, sender } = buildOutbox(o);
  return {
    deps: deps(worker),
    start: async () => worker.start(),
    async stop() {
      await worker.stop();
      await sender.close();
    },
  };
}

/** The outbox thread, started once an endpoint exists (outbox/first-endpoint.ts). */
function threadEvents(
  o: Parameters<typeof createEvents>[0],
  deps: (worker: Pick<EventsDeps, 'nudge' | 'endpointsChanged'>) => EventsDeps,
): Events {
  const host = new OutboxThreadHost({ ...o, onAttempts: (list) => list.forEach(o.onAttempt) });
  const lazy = new StartOnFirstEndpoint({
    start: () => host.start(),
    anyEndpoint: async () => (await o.store.listEndpoints(undefined)).length > 0,
    scheduler: o.scheduler,
    log: o.log,
  });
  return {
    deps: deps({
      nudge: () => {
        lazy.wanted();
        host.nudge();
      },
      endpointsChanged: () => {
        lazy.wanted();
        host.endpointsChanged();
      },
    }),
    start: () => lazy.start(),
    stop: () => lazy.stop(() => host.stop()),
  };
}

/**
 * The PEM file of webhooks.caFile; one that cannot be read or holds no certificate stops the
 * start.
 */
export function trustedCa(file: string): string {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (err) {
    throw new ConfigError(`webhooks.caFile (WIREBIRD_WEBHOOK_CA_FILE): ${errorText(err)}`);
  }
  if (!pem.includes('-----BEGIN CERTIFICATE-----')) {
    throw new ConfigError(
      `webhooks.caFile (WIREBIRD_WEBHOOK_CA_FILE): ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`,
    );
  }
  return pem;
}
