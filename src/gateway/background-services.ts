/**
 * How each background part of the gateway is built from the runtime (config, store, clock,
 * scheduler, logger): the builders main.ts's composition root calls, in its order.
 */
import type { Logger } from 'pino';
import { randomIds } from './system-sources.js';
import { whatsAppWebhook } from '../channels/whatsapp/webhook.js';
import { InboundMediaFetcher, type MediaFetchOptions } from '../channels/whatsapp/media-fetch.js';
import { resolveGatewaySecret } from '../crypto/secret-files.js';
import type { SecretBox } from '../crypto/secret-box.js';
import type { Config } from '../config/config.js';
import type { Clock, Routing, Scheduler, Store, StoreShare } from '../domain/ports.js';
import { releaseShareOf } from '../store/open-store.js';
import { SmppServer } from '../smpp-server/smpp-server.js';
import { commandStatusName } from '../domain/smpp/tables.js';
import type { Metrics } from '../metrics/metrics.js';
import type { InboundSink } from '../dispatch/inbound-sink.js';
import { createEvents } from '../outbox/start-events.js';
import { onOneNode } from '../dispatch/one-node.js';
import type { Pipeline } from './dispatch-pipeline.js';
import { AutoReviewer } from '../review/auto-reviewer.js';
import { AcceptPool } from '../api/accept-threads/accept-pool.js';
import type { KeyUsage } from '../core/api-keys.js';
import type { SmsIntake } from '../core/accept-sms.js';
import { FallbackSender } from '../core/business-fallback.js';

export interface Runtime {
  config: Config;
  store: Store;
  clock: Clock;
  scheduler: Scheduler;
  logger: Logger;
  /** What the acceptance and outbox threads open their own store connections with, if any. */
  share: StoreShare | undefined;
}

/** How the core accepts SMS off the HTTP API: for the SMPP server and business fallbacks. */
function smsIntakeOf(
  rt: Runtime,
  parts: { metrics: Metrics; pipeline: Pipeline; routing: Routing },
): SmsIntake & { store: Store } {
  return {
    store: rt.store,
    routing: parts.routing,
    clock: rt.clock,
    gatewayRegion: rt.config.defaultRegion,
    maxSegments: rt.config.maxSegments,
    maxScheduleDays: rt.config.maxScheduleDays,
    newSessionNo: randomIds.orderedId,
    accepted: (routes, held) => {
      parts.metrics.messagesAccepted('sms', routes);
      if (!held) parts.pipeline.dispatcher.nudge();
    },
    refused: (accountId, rule, n) => parts.metrics.policyRefused(accountId, rule, n),
  };
}

/** Business messages' SMS fallbacks, settled by one node at a time (docs/whatsapp.md). */
export function fallbackSenderOf(
  rt: Runtime,
  parts: { metrics: Metrics; pipeline: Pipeline; routing: Routing },
): FallbackSender {
  return new FallbackSender({
    sms: smsIntakeOf(rt, parts),
    store: rt.store,
    newSessionNo: randomIds.orderedId,
    log: rt.logger.child({ worker: 'fallback' }),
    scheduler: rt.scheduler,
    mayRun: onOneNode(rt.store, 'business-fallback'),
    onSettled: (state) => parts.metrics.fallbackSettled(state),
  });
}

/** The SMPP server ESMEs bind to, when smppServer.listen is set (docs/smpp-server.md). */
export function smppServerOf(
  rt: Runtime,
  parts: { metrics: Metrics; pipeline: Pipeline; routing: Routing; keyUsage: KeyUsage },
): SmppServer | undefined {
  const { config } = rt;
  const listen = config.smppServer.listen;
  if (!listen) return undefined;
  return new SmppServer({
    config: { ...config.smppServer, listen },
    store: rt.store,
    submit: smsIntakeOf(rt, parts),
    scheduler: rt.scheduler,
    log: rt.logger.child({ worker: 'smpp-server' }),
    keyUsage: parts.keyUsage,
    observe: {
      answer: (command, status) =>
        parts.metrics.smppRequests.inc({ command, status: commandStatusName(status) }),
      binds: (open) => parts.metrics.smppBinds.set(open),
      lockout: () => parts.metrics.auth.lockout('smpp'),
      bindRefused: (reason) => parts.metrics.smppBindRefusals.inc({ reason }),
    },
  });
}

/** The files of inbound WhatsApp messages, fetched through the Graph API (docs/inbound.md). */
export function mediaFetcherOf(rt: Runtime, onOutcome: MediaFetchOptions['onOutcome']) {
  const { whatsapp } = rt.config;
  return new InboundMediaFetcher({
    store: rt.store,
    apiUrl: whatsapp.apiUrl,
    timeoutMs: whatsapp.timeoutMs,
    newMediaId: randomIds.mediaId,
    clock: rt.clock,
    scheduler: rt.scheduler,
    log: rt.logger.child({ channel: 'whatsapp', worker: 'inbound-media' }),
    pollMs: 1000,
    onOutcome,
  });
}

/** Event delivery, its attempts counted in /metrics. */
export function eventsOf(rt: Runtime, box: SecretBox, metrics: Metrics) {
  return createEvents({
    config: rt.config,
    store: rt.store,
    box,
    secret: resolveGatewaySecret(rt.config),
    share: rt.share,
    onThreadEnded: (threadId) => rt.share && releaseShareOf(rt.share, threadId),
    clock: rt.clock,
    scheduler: rt.scheduler,
    log: rt.logger.child({ worker: 'events' }),
    onAttempt: (a) => metrics.webhookAttempted(a),
  });
}

const PRUNE_EVERY_MS = 3600_000;
const PRUNE_BATCH = 10_000;

/**
 * Settled event history older than webhooks.retentionDays goes, in batches, every hour (and once
 * at start); one node of several does it at a time. Pending deliveries are never touched.
 */
export function pruneOutboxEvery(rt: Runtime): { cancel(): void } {
  const mine = onOneNode(rt.store, 'outbox-prune');
  const keepMs = rt.config.webhooks.retentionDays * 86_400_000;
  const pass = async () => {
    if (!(await mine())) return;
    const before = rt.clock.now() - keepMs;
    while ((await rt.store.pruneOutbox(before, PRUNE_BATCH)) === PRUNE_BATCH);
  };
  // The pass is handed back so that a test's clock waits for it.
  const run = () => pass().catch((err: unknown) => rt.logger.error({ err }, 'outbox not pruned'));
  void run();
  return rt.scheduler.every(PRUNE_EVERY_MS, run);
}

/** The auto-reviewer, when templates are reviewed automatically. */
export function autoReviewer(rt: Runtime): AutoReviewer | undefined {
  const { config, store } = rt;
  if (config.templateReview !== 'auto') return undefined;
  return new AutoReviewer({
    store,
    clock: rt.clock,
    scheduler: rt.scheduler,
    rules: { bannedWords: config.bannedWords, maxLength: config.reviewMaxLength },
    log: rt.logger.child({ worker: 'auto-review' }),
    mayRun: onOneNode(store, 'auto-reviewer'),
  });
}

/** Meta's webhook for the WhatsApp channel: its statuses go to the report sink. */
export function webhookOf(rt: Runtime, pipeline: Pipeline, metrics: Metrics, inbound: InboundSink) {
  return whatsAppWebhook({
    config: rt.config.whatsapp,
    reports: pipeline.reports.push,
    inbound: (arrived) => inbound.receive(arrived),
    clock: rt.clock,
    log: rt.logger.child({ channel: 'whatsapp', worker: 'webhook' }),
    onBadSignature: () => metrics.webhookSignatureFailures.inc({ channel: 'whatsapp' }),
  });
}

/**
 * The acceptance threads, when the store is SQLite and some are configured: they start with the
 * first SendBatchUSMSMessage (the main thread answers it, and any until they run).
 */
export function acceptPoolOf(
  rt: Runtime,
  metrics: Metrics,
  pipeline: Pipeline,
): AcceptPool | undefined {
  const { share, config, logger } = rt;
  // Acceptance threads are SQLite's answer to its one writer; the share may be the outbox's alone.
  if (!share || rt.store.dialect !== 'sqlite' || config.acceptThreads === 0) return undefined;
  return new AcceptPool({
    threads: config.acceptThreads,
    config,
    share,
    log: logger.child({ worker: 'accept' }),
    onAccepted(counts, due) {
      for (const [kind, channel, n] of counts) metrics.acceptedOn(kind, channel, n);
      if (due) pipeline.dispatcher.nudge();
    },
    onRefused(refusals) {
      for (const [accountId, rule, n] of refusals) metrics.policyRefused(accountId, rule, n);
    },
    onThreads: (running) => metrics.acceptThreads.set(running),
  });
}
