import type { Config } from '../config/config.js';
import type { StoreShare } from '../domain/ports.js';

/** What the outbox thread is started with. */
export interface OutboxThreadData {
  config: Config;
  /** The gateway secret the endpoints' signing secrets are sealed under. */
  secret: string;
  /** What the thread opens its own store connection with (from the main thread). */
  share: StoreShare | undefined;
}

export type ToOutboxThread = { kind: 'nudge' } | { kind: 'endpoints' } | { kind: 'stop' };

/** One attempt as /metrics counts it. */
export interface AttemptSummary {
  state: 'pending' | 'delivered' | 'failed';
  gone: boolean;
  latencyMs: number;
}

export type FromOutboxThread =
  { kind: 'ready' } | { kind: 'attempts'; list: AttemptSummary[] } | { kind: 'stopped' };
