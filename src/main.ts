import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { IdSource } from './api/context.js';
import { buildServer } from './api/server.js';
import {
  createDevAccountIfNone,
  importConfiguredKeys,
  resolveAdminKey,
} from './bootstrap/first-start.js';
import type { Config } from './config/config.js';
import type { Clock, Store } from './domain/ports.js';
import { createLogger } from './logger.js';
import { onOneNode } from './dispatch/one-node.js';
import { startPipeline, type Pipeline } from './pipeline.js';
import { AutoReviewer } from './review/auto-reviewer.js';
import { openStore } from './store/open-store.js';

export interface Gateway {
  app: FastifyInstance;
  store: Store;
  url: string;
  adminKey: string;
  devAccount: { accountId: number; key: string } | undefined;
  pipeline: Pipeline;
  stop(): Promise<void>;
}

export const systemClock: Clock = { now: () => Date.now() };

const TEMPLATE_ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
export const randomIds: IdSource = {
  templateId: () => 'UTA' + [...randomBytes(10)].map((b) => TEMPLATE_ID_ALPHABET[b % 32]).join(''),
  uuid: () => randomUUID(),
};

/** Wires config → store → background workers → API, and listens. */
export async function startGateway(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
): Promise<Gateway> {
  const clock = systemClock;
  const store = await openStore(config);
  try {
    return await startOnStore(config, store, clock, logger);
  } catch (err) {
    await store.close();
    throw err;
  }
}

async function startOnStore(
  config: Config,
  store: Store,
  clock: Clock,
  logger: Logger,
): Promise<Gateway> {
  await importConfiguredKeys(store, config, clock.now());
  const devAccount = await createDevAccountIfNone(store, config, clock.now());
  const admin = resolveAdminKey(config);
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
  const pipeline = await startPipeline(config, store, clock, logger);
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
    },
    logger,
  );
  if (auto) reviewer.start();
  const url = await app.listen({ port: config.port, host: config.host });
  return {
    app,
    store,
    url,
    adminKey: admin.key,
    devAccount,
    pipeline,
    async stop() {
      await app.close();
      await reviewer.stop();
      await pipeline.stop();
      await store.close();
    },
  };
}
