import type { Static, TSchema } from '@sinclair/typebox';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/config.js';
import type { Clock, Routing, Store } from '../domain/ports.js';
import type { Metrics } from '../metrics/metrics.js';
import { validator } from './validate.js';

export interface IdSource {
  templateId(): string;
  uuid(): string;
  /** A Wirebird media id: MEDIA_ID_PREFIX and random characters. */
  mediaId(): string;
}

/** Background work the API nudges so that new rows are picked up at once, not at the next poll. */
export interface Nudges {
  reviewTemplates(): void;
  dispatch(): void;
}

export interface ApiDeps {
  store: Store;
  config: Config;
  clock: Clock;
  ids: IdSource;
  nudges: Nudges;
  routing: Routing;
  metrics: Metrics;
}

export interface ActionContext {
  accountId: number;
  deps: ApiDeps;
  log: FastifyBaseLogger;
  /** The Idempotency-Key header, where the client sent one. */
  idempotencyKey: string | undefined;
}

export interface ActionDef {
  validate: (value: unknown) => unknown;
  handle(ctx: ActionContext, input: unknown): Promise<Record<string, unknown>>;
}

/** An Action: its request schema (checked once, at the edge) and the handler of the typed input. */
export function defineAction<S extends TSchema>(
  schema: S,
  handle: (ctx: ActionContext, input: Static<S>) => Promise<Record<string, unknown>>,
): ActionDef {
  return { validate: validator(schema), handle: handle as ActionDef['handle'] };
}
