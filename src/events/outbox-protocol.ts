import type { Config } from '../config/config.js';

/** What the outbox thread is started with. */
export interface OutboxThreadData {
  config: Config;
  /** The gateway secret the endpoints' signing secrets are sealed under. */
  secret: string;
  /** The SQLite write lock shared with the main thread (absent on PostgreSQL). */
  lockBuffer: SharedArrayBuffer | undefined;
}

export type ToOutboxThread = { kind: 'nudge' } | { kind: 'stop' };

/** One attempt as /metrics counts it. */
export interface AttemptSummary {
  state: 'pending' | 'delivered' | 'failed';
  gone: boolean;
  latencyMs: number;
}

export type FromOutboxThread =
  { kind: 'ready' } | { kind: 'attempts'; list: AttemptSummary[] } | { kind: 'stopped' };
