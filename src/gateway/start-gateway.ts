import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildServer } from '../api/server.js';
import { randomIds, systemClock, systemScheduler } from './system-sources.js';
import { mountWebhook } from '../api/webhook-route.js';
import {
  createDevAccountIfNone,
  createDevSmppCredentialIfNone,
  importConfiguredEsmes,
  importConfiguredKeys,
  importConfiguredPhones,
  importConfiguredUcloudKeys,
  resolveAdminKey,
} from '../core/first-start.js';
import { resolveGatewaySecret } from '../crypto/secret-files.js';
import { secretBox, type SecretBox } from '../crypto/secret-box.js';
import type { Config } from '../config/config.js';
import type { Clock, Scheduler, Store } from '../domain/ports.js';
import type { SmppServer } from '../smpp-server/smpp-server.js';
import { createChannels } from '../channels/registry.js';
import { registerConsole } from '../console/console.js';
import { InboxFeed } from '../console/inbox-feed.js';
import { createLogger } from '../logger.js';
import { MetricsHistory } from '../metrics/history.js';
import { Metrics } from '../metrics/metrics.js';
import { InboundSink } from '../dispatch/inbound-sink.js';
import type { InboundMediaFetcher } from '../channels/whatsapp/media-fetch.js';
import { onOneNode } from '../dispatch/one-node.js';
import { startPipeline, type Pipeline } from './dispatch-pipeline.js';
import type { AutoReviewer } from '../review/auto-reviewer.js';
import { openStore, storeShare } from '../store/open-store.js';
import type { AcceptPool } from '../api/accept-threads/accept-pool.js';
import { KeyUsage } from '../core/api-keys.js';
import type { FallbackSender } from '../core/business-fallback.js';
import {
  autoReviewer,
  eventsOf,
  mediaFetcherOf,
  pruneOutboxEvery,
  smppServerOf,
  acceptPoolOf,
  fallbackSenderOf,
  webhookOf,
  type Runtime,
} from './background-services.js';

export interface Gateway {
  app: FastifyInstance;
  store: Store;
  url: string;
  adminKey: string;
  devAccount: { accountId: number; key: string; smsNumber?: string } | undefined;
  /** Where the SMPP server listens (`host:port`), when it is on. */
  smppAddress: string | undefined;
  /** The development account's SMPP credential, made at a first start with the server on. */
  devSmpp: { systemId: string; password: string } | undefined;
  pipeline: Pipeline;
  metrics: Metrics;
  /** The acceptance threads (SQLite with acceptThreads > 0). */
  acceptPool: AcceptPool | undefined;
  logger: Logger;
  stop(): Promise<void>;
}

/**
 * Time as the gateway reads it: the wall clock and real timers, unless a test passes a clock it
 * moves (test/helpers/manual-time.ts) so that what is due falls due without waiting for it.
 */
export interface GatewayTime {
  clock: Clock;
  scheduler: Scheduler;
}

const SYSTEM_TIME: GatewayTime = { clock: systemClock, scheduler: systemScheduler };

/** Wires config → store → background workers → API, and listens. */
export async function startGateway(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
  time: GatewayTime = SYSTEM_TIME,
): Promise<Gateway> {
  // SQLite written from other threads (acceptance, the outbox thread) takes a shared write lock.
  const threads = config.acceptThreads > 0 || config.webhooks.thread;
  const share = threads ? storeShare(config) : undefined;
  const store = await openStore(config, share);
  const runtime = { config, store, ...time, logger, share };
  try {
    return await startOnStore(runtime);
  } catch (err) {
    await store.close();
    throw err;
  }
}

/** What every part is built from: the config, the store, time, the log. */

/** What start-up registers and reads before serving: keys, phones, the secrets it seals with. */
async function credentials(store: Store, config: Config, now: number) {
  await importConfiguredKeys(store, config, now);
  await importConfiguredPhones(store, config, now);
  const box = secretBox(resolveGatewaySecret(config));
  await importConfiguredUcloudKeys(store, config, box, now);
  const devAccount = await createDevAccountIfNone(store, config, now);
  await importConfiguredEsmes(store, config, now);
  const devSmpp = await createDevSmppCredentialIfNone(store, config, now);
  return { box, devAccount, devSmpp, admin: resolveAdminKey(config) };
}

/**
 * Builds each part once, from what it needs, in dependency order: channels (the console's
 * inbox feed among their listeners), metrics over them, the pipeline, the reviewer, the
 * acceptance threads, the HTTP server. Nothing is assigned after construction.
 */
async function startOnStore(rt: Runtime): Promise<Gateway> {
  return serveParts(rt, await buildParts(rt));
}

/** The parts, built once each from what they need; none is started here but the pipeline. */
async function buildParts(rt: Runtime) {
  const { config, store, clock, logger } = rt;
  const creds = await credentials(store, config, clock.now());
  const feed = new InboxFeed();
  // Both tell `metrics`, built below (it needs channels), once things arrive.
  const media = mediaFetcherOf(rt, (outcome) => metrics.inboundMediaFetched(outcome));
  const inbound = new InboundSink({
    store,
    newId: randomIds.inboundId,
    log: logger.child({ worker: 'inbound' }),
    onStored: (m) => {
      metrics.inboundStored(m);
      if (m.media?.state === 'pending') media.nudge();
    },
  });
  const channels = createChannels({
    config,
    store,
    clock,
    log: logger,
    onInboxChange: feed.publish,
    inbound: { message: (a) => inbound.receive(a), part: (p) => inbound.receivePart(p) },
  });
  const metrics = new Metrics(store, clock, channels.byName);
  const events = eventsOf(rt, creds.box, metrics);
  const pipeline = await startPipeline({ ...rt, metrics, channels });
  const offload = acceptPoolOf(rt, metrics, pipeline);
  const keyUsage = new KeyUsage(store);
  const smppServer = smppServerOf(rt, { metrics, pipeline, routing: channels.routing, keyUsage });
  const fallbacks = fallbackSenderOf(rt, { metrics, pipeline, routing: channels.routing });
  const history = new MetricsHistory(metrics, clock);
  const built = { feed, media, inbound, channels, metrics, events, pipeline, offload, history };
  return { ...creds, ...built, keyUsage, smppServer, fallbacks, reviewer: autoReviewer(rt) };
}

/** The HTTP server and the background work over the parts; listening, then the SMPP server. */
async function serveParts(
  rt: Runtime,
  parts: Awaited<ReturnType<typeof buildParts>>,
): Promise<Gateway> {
  const { config, store, clock, logger } = rt;
  const { media, smppServer, offload } = parts;
  const app = httpServer(rt, parts);
  const stopWork = await startBackground(rt, { ...parts, app });
  const url = await app
    .listen({ port: config.port, host: config.host })
    .catch(async (err: unknown) => {
      await stopWork();
      throw err;
    });
  // Files are served where the gateway listens unless the operator says where it is reached.
  media.start(config.publicUrl ?? url);
  const smppAddress = await smppServer?.start().catch(async (err: unknown) => {
    await stopWork();
    throw err;
  });
  return {
    app,
    store,
    url,
    adminKey: parts.admin.key,
    devAccount: parts.devAccount,
    devSmpp: parts.devSmpp,
    smppAddress,
    pipeline: parts.pipeline,
    metrics: parts.metrics,
    acceptPool: offload,
    logger,
    async stop() {
      const started = clock.now();
      await stopWork();
      await store.close();
      logger.info({ ms: clock.now() - started }, 'stopped');
    },
  };
}
/**
 * Replies whose parts stopped coming are stored without them after the wait; looked for every
 * tenth of it, so none waits more than 10 % longer. One node of several does it at a time.
 */
function flushPartsEvery(rt: Runtime, inbound: InboundSink): { cancel(): void } {
  const waitMs = rt.config.inboundPartsWaitS * 1000;
  const mine = onOneNode(rt.store, 'inbound-parts');
  return rt.scheduler.every(Math.max(1000, waitMs / 10), () =>
    mine()
      .then((yes) => (yes ? inbound.flush(rt.clock.now(), waitMs) : 0))
      .catch((err: unknown) => rt.logger.error({ err }, 'reply parts not flushed')),
  );
}

/** The parts that run in the background and stop with the gateway. */
interface Running {
  app: FastifyInstance;
  offload: AcceptPool | undefined;
  reviewer: AutoReviewer | undefined;
  history: MetricsHistory;
  events: ReturnType<typeof eventsOf>;
  media: InboundMediaFetcher;
  smppServer: SmppServer | undefined;
  pipeline: Pipeline;
  inbound: InboundSink;
  keyUsage: KeyUsage;
  fallbacks: FallbackSender;
}

/** Starts the timed and background work; answers how to stop all of it, in order. */
async function startBackground(rt: Runtime, r: Running): Promise<() => Promise<void>> {
  r.reviewer?.start();
  r.fallbacks.start();
  r.history.start();
  await r.events.start();
  const partsFlush = flushPartsEvery(rt, r.inbound);
  const pruning = pruneOutboxEvery(rt);
  return async () => {
    r.history.stop();
    rt.logger.info('shutting down: refusing new connections, answering the requests in hand');
    await r.app.close();
    await r.keyUsage.close();
    rt.logger.info('HTTP server closed');
    await r.offload?.stop();
    await r.reviewer?.stop();
    await r.fallbacks.stop();
    partsFlush.cancel();
    pruning.cancel();
    await r.media.stop();
    await r.smppServer?.stop();
    await r.events.stop();
    // The dispatcher finishes its claimed messages; anything a crash would leave claimed comes
    // back by its lease, so a stop hands nothing back by hand.
    await r.pipeline.stop();
  };
}

/** What the HTTP server is built over: the parts start-up made before it. */
interface HttpParts {
  admin: { key: string };
  box: SecretBox;
  feed: InboxFeed;
  history: MetricsHistory;
  channels: ReturnType<typeof createChannels>;
  metrics: Metrics;
  pipeline: Pipeline;
  reviewer: AutoReviewer | undefined;
  offload: AcceptPool | undefined;
  inbound: InboundSink;
  events: ReturnType<typeof eventsOf>;
  smppServer: SmppServer | undefined;
  keyUsage: KeyUsage;
  fallbacks: FallbackSender;
}

/** The HTTP server: the API (and admin API), the WhatsApp webhook, the console. */
function httpServer(rt: Runtime, p: HttpParts): FastifyInstance {
  const { config, store, clock, logger } = rt;
  const app = buildServer(
    {
      store,
      config: { ...config, adminKey: p.admin.key },
      clock,
      ids: randomIds,
      nudges: {
        reviewTemplates: () => p.reviewer?.nudge(),
        dispatch: () => p.pipeline.dispatcher.nudge(),
        fallbacks: () => p.fallbacks.nudge(),
      },
      routing: p.channels.routing,
      metrics: p.metrics,
      offload: p.offload,
      box: p.box,
      inbound: p.inbound,
      webhooks: p.events.deps,
      keyUsage: p.keyUsage,
    },
    logger,
  );
  mountWebhook(app, webhookOf(rt, p.pipeline, p.metrics, p.inbound));
  registerConsole(app, {
    store,
    clock,
    adminKey: p.admin.key,
    defaultRegion: config.defaultRegion,
    feed: p.feed,
    history: p.history,
    channels: () => [...p.channels.byName.values()].map((c) => c.status()),
    box: p.box,
    inbound: p.inbound,
    webhooks: p.events.deps,
    secretGraceMs: config.webhooks.secretGraceMs,
    newEndpointId: randomIds.endpointId,
    ...(p.smppServer ? { smppBinds: () => p.smppServer?.bindCounts() ?? new Map() } : {}),
  });
  return app;
}
