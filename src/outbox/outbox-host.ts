import { Worker } from 'node:worker_threads';
import type { Logger } from 'pino';
import type { Config } from '../config/config.js';
import type { StoreShare } from '../domain/ports.js';
import type {
  AttemptSummary,
  FromOutboxThread,
  OutboxThreadData,
  ToOutboxThread,
} from './outbox-protocol.js';

// The thread holds claimed deliveries and HTTP connections, little else.
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 16 };
const RESTART_AFTER_MS = 1000;

export interface OutboxThreadOptions {
  config: Config;
  secret: string;
  share: StoreShare | undefined;
  log: Logger;
  onAttempts(list: readonly AttemptSummary[]): void;
  /** Told of a thread that ended, so that what it held of the store share is freed. */
  onThreadEnded?(threadId: number): void;
}

/**
 * Runs the outbox worker in a thread of its own and restarts it if it dies: what it had claimed
 * is due again when the claims' leases end, so a crash delays events and loses none.
 */
export class OutboxThreadHost {
  private worker: Worker | undefined;
  private stopping = false;
  private restart: NodeJS.Timeout | undefined;

  constructor(private readonly o: OutboxThreadOptions) {}

  async start(): Promise<void> {
    const worker = this.spawn();
    await new Promise<void>((resolve, reject) => {
      const onMessage = (m: FromOutboxThread) => {
        if (m.kind !== 'ready') return;
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve();
      };
      worker.on('message', onMessage);
      worker.once('error', reject);
    });
  }

  nudge(): void {
    this.worker?.postMessage({ kind: 'nudge' } satisfies ToOutboxThread);
  }

  endpointsChanged(): void {
    this.worker?.postMessage({ kind: 'endpoints' } satisfies ToOutboxThread);
  }

  /** Lets attempts in flight finish and be recorded, then ends the thread. */
  async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restart);
    const worker = this.worker;
    if (!worker) return;
    const stopped = new Promise<void>((resolve) => {
      worker.on('message', (m: FromOutboxThread) => m.kind === 'stopped' && resolve());
      worker.once('exit', () => resolve());
    });
    worker.postMessage({ kind: 'stop' } satisfies ToOutboxThread);
    await stopped;
    await worker.terminate();
  }

  private spawn(): Worker {
    const { config, secret, share } = this.o;
    const workerData: OutboxThreadData = { config, secret, share };
    const worker = new Worker(new URL('./outbox-thread.js', import.meta.url), {
      workerData,
      resourceLimits: RESOURCE_LIMITS,
    });
    worker.on('message', (m: FromOutboxThread) => {
      if (m.kind === 'attempts') this.o.onAttempts(m.list);
    });
    worker.on('error', (err) => this.o.log.error({ err }, 'the outbox thread failed'));
    // Kept apart: a Worker's own threadId reads -1 once the thread has gone.
    const threadId = worker.threadId;
    worker.on('exit', (code) => {
      this.o.onThreadEnded?.(threadId);
      if (this.stopping || this.worker !== worker) return;
      // Until its successor starts there is no thread to stop: stop() must not wait on this one.
      this.worker = undefined;
      this.o.log.error({ code }, 'the outbox thread ended; starting another');
      this.restart = setTimeout(() => {
        this.worker = this.spawn();
      }, RESTART_AFTER_MS);
    });
    this.worker = worker;
    return worker;
  }
}
