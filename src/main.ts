import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildServer } from './api/server.js';
import { randomIds, systemClock } from './api/sources.js';
import { whatsAppWebhook } from './channels/whatsapp/webhook.js';
import { mountWebhook } from './api/webhook-route.js';
import {
  createDevAccountIfNone,
  importConfiguredKeys,
  importConfiguredPhones,
  importConfiguredUcloudKeys,
  resolveAdminKey,
  resolveGatewaySecret,
} from './bootstrap/first-start.js';
import { secretBox } from './api/ucloud/secret-box.js';
import type { Config } from './config/config.js';
import type { Clock, Store } from './domain/ports.js';
import { registerConsole } from './console/console.js';
import { InboxFeed } from './console/inbox-feed.js';
import { createLogger } from './logger.js';
import { MetricsHistory } from './metrics/history.js';
import { Metrics } from './metrics/metrics.js';
import { onOneNode } from './dispatch/one-node.js';
import { startPipeline, type Pipeline } from './pipeline.js';
import { AutoReviewer } from './review/auto-reviewer.js';
import { openStore, sqlitePath } from './store/open-store.js';
import { WriteLock } from './store/sqlite/write-lock.js';
import { AcceptPool } from './api/offload/accept-pool.js';

export interface Gateway {
  app: FastifyInstance;
  store: Store;
  url: string;
  adminKey: string;
  devAccount: { accountId: number; key: string } | undefined;
  pipeline: Pipeline;
  metrics: Metrics;
  /** The acceptance threads (SQLite with acceptThreads > 0). */
  acceptPool: AcceptPool | undefined;
  logger: Logger;
  stop(): Promise<void>;
}

/** Wires config → store → background workers → API, and listens. */
export async function startGateway(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
): Promise<Gateway> {
  const clock = systemClock;
  const lock = config.acceptThreads > 0 && !config.database.url ? new WriteLock() : undefined;
  const store = await openStore(config, lock);
  try {
    return await startOnStore(config, store, clock, logger, lock);
  } catch (err) {
    await store.close();
    throw err;
  }
}

/** What start-up registers and reads before serving: keys, phones, the secrets it seals with. */
async function credentials(store: Store, config: Config, now: number) {
  await importConfiguredKeys(store, config, now);
  await importConfiguredPhones(store, config, now);
  const box = secretBox(resolveGatewaySecret(config));
  await importConfiguredUcloudKeys(store, config, box, now);
  const devAccount = await createDevAccountIfNone(store, config, now);
  return { box, devAccount, admin: resolveAdminKey(config) };
}

async function startOnStore(
  config: Config,
  store: Store,
  clock: Clock,
  logger: Logger,
  lock: WriteLock | undefined,
): Promise<Gateway> {
  const { box, devAccount, admin } = await credentials(store, config, clock.now());
  const effective = { ...config, adminKey: admin.key };

  const reviewer = new AutoReviewer(
    store,
    clock,
    { bannedWords: config.bannedWords, maxLength: config.reviewMaxLength },
    logger.child({ worker: 'auto-review' }),
    undefined,
    onOneNode(store, 'auto-reviewer'),
  );
  const auto = config.templateReview === 'auto';
  const metrics = new Metrics(store, clock);
  const pipeline = await startPipeline(config, store, clock, logger, metrics);
  metrics.channels = pipeline.channels.byName;
  const history = new MetricsHistory(metrics, clock);
  const offload = await startAcceptPool(lock, config, logger, metrics, pipeline).catch(
    async (err: unknown) => {
      await pipeline.stop();
      throw err;
    },
  );
  const feed = new InboxFeed();
  pipeline.channels.simulator.onInboxChange = feed.publish;
  const app = buildServer(
    {
      store,
      config: effective,
      clock,
      ids: randomIds,
      nudges: {
        reviewTemplates: () => auto && reviewer.nudge(),
        dispatch: () => pipeline.dispatcher.nudge(),
      },
      routing: pipeline.channels.routing,
      metrics,
      offload,
      box,
    },
    logger,
  );
  mountWebhook(
    app,
    whatsAppWebhook({
      config: config.whatsapp,
      reports: pipeline.reports.push,
      clock,
      log: logger.child({ channel: 'whatsapp', worker: 'webhook' }),
      onBadSignature: () => metrics.webhookSignatureFailures.inc({ channel: 'whatsapp' }),
    }),
  );
  registerConsole(app, {
    store,
    clock,
    adminKey: admin.key,
    defaultRegion: config.defaultRegion,
    feed,
    history,
    channels: () => [...pipeline.channels.byName.values()].map((c) => c.status()),
    box,
  });
  if (auto) reviewer.start();
  history.start();
  const stopWork = async () => {
    history.stop();
    logger.info('shutting down: refusing new connections, answering the requests in hand');
    await app.close();
    logger.info('HTTP server closed');
    await offload?.stop();
    await reviewer.stop();
    // The dispatcher finishes its claimed messages; anything a crash would leave claimed comes
    // back by its lease, so a stop hands nothing back by hand.
    await pipeline.stop();
  };
  const url = await app.listen({ port: config.port, host: config.host }).catch(async (err) => {
    await stopWork();
    throw err;
  });
  return {
    app,
    store,
    url,
    adminKey: admin.key,
    devAccount,
    pipeline,
    metrics,
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

/** The acceptance threads, when the store is SQLite and some are configured. */
async function startAcceptPool(
  lock: WriteLock | undefined,
  config: Config,
  logger: Logger,
  metrics: Metrics,
  pipeline: Pipeline,
): Promise<AcceptPool | undefined> {
  if (!lock) return undefined;
  return AcceptPool.start({
    threads: config.acceptThreads,
    config,
    path: sqlitePath(config),
    lock,
    log: logger.child({ worker: 'accept' }),
    onAccepted(counts) {
      for (const [kind, channel, n] of counts) metrics.acceptedOn(kind, channel, n);
      pipeline.dispatcher.nudge();
    },
  });
}
