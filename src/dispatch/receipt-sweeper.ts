import type { Logger } from 'pino';
import type { Clock, MessageStore, Scheduler } from '../domain/ports.js';

const SWEEP_LIMIT = 1000;

export interface ReceiptSweeperOptions {
  store: Pick<MessageStore, 'expireAwaiting' | 'expireQueued'>;
  clock: Clock;
  scheduler: Scheduler;
  /** A submitted message with no final report after this long becomes Unknow. */
  timeoutMs: number;
  log: Logger;
  /** Between sweeps: a tenth of the timeout, within 100 ms and 10 s, unless given. */
  intervalMs?: number;
  /** Told how many receipts each sweep timed out (metrics). */
  onExpired?: (count: number) => void;
  /** Told how many held messages each sweep ended because their ValidityPeriod passed. */
  onValidityExpired?: (count: number) => void;
}

/** The period of the sweeps: a message times out at most a tenth of the timeout late. */
export function sweepIntervalMs(timeoutMs: number): number {
  return Math.min(10_000, Math.max(100, timeoutMs / 10));
}

/**
 * Messages whose report never came become Unknow once the receipt timeout has passed; the same
 * sweep drops early reports that no message claimed within it (the store's expireAwaiting), and
 * ends held messages whose ValidityPeriod passed (expireQueued: no claim hands them upstream
 * meanwhile, so a sweep a little late sends nothing it should not).
 */
export class ReceiptSweeper {
  private timer: { cancel(): void } | undefined;
  private sweeping: Promise<number> | undefined;
  private readonly intervalMs: number;

  constructor(private readonly options: ReceiptSweeperOptions) {
    this.intervalMs = options.intervalMs ?? sweepIntervalMs(options.timeoutMs);
  }

  start(): void {
    // The sweep is handed back so that a test's clock waits for it (a slow store would otherwise
    // make the next due sweep find this one running and skip).
    this.timer = this.options.scheduler.every(
      this.intervalMs,
      () => (this.sweeping ??= this.sweep().finally(() => (this.sweeping = undefined))),
    );
  }

  async sweep(): Promise<number> {
    const { store, timeoutMs, log, onExpired, onValidityExpired } = this.options;
    // Counted as they go, so that a store failing midway still reports what was done.
    const done = { receipts: 0, held: 0 };
    try {
      await this.repeat(
        (now) => store.expireAwaiting(now - timeoutMs, now, SWEEP_LIMIT),
        (n) => (done.receipts += n),
      );
      onExpired?.(done.receipts);
      if (done.receipts > 0) log.info({ expired: done.receipts }, 'receipts timed out as Unknow');
      await this.repeat(
        (now) => store.expireQueued(now, SWEEP_LIMIT),
        (n) => (done.held += n),
      );
      onValidityExpired?.(done.held);
      if (done.held > 0) log.info({ expired: done.held }, 'held messages expired (ValidityPeriod)');
    } catch (err) {
      log.error({ err }, 'receipt sweep failed');
    }
    return done.receipts;
  }

  /** Runs `step` until it ends fewer than a full batch, telling `count` each time. */
  private async repeat(
    step: (now: number) => Promise<number>,
    count: (n: number) => void,
  ): Promise<void> {
    for (;;) {
      const n = await step(this.options.clock.now());
      count(n);
      if (n < SWEEP_LIMIT) return;
    }
  }

  async stop(): Promise<void> {
    this.timer?.cancel();
    await this.sweeping;
  }
}
