import type { Logger } from 'pino';
import type { Clock, MessageStore, Scheduler } from '../domain/ports.js';

const SWEEP_LIMIT = 1000;

export interface ReceiptSweeperOptions {
  store: Pick<MessageStore, 'expireAwaiting'>;
  clock: Clock;
  scheduler: Scheduler;
  /** A submitted message with no final report after this long becomes Unknow. */
  timeoutMs: number;
  log: Logger;
  /** Between sweeps: a tenth of the timeout, within 100 ms and 10 s, unless given. */
  intervalMs?: number;
  /** Told how many receipts each sweep timed out (metrics). */
  onExpired?: (count: number) => void;
}

/** The period of the sweeps: a message times out at most a tenth of the timeout late. */
export function sweepIntervalMs(timeoutMs: number): number {
  return Math.min(10_000, Math.max(100, timeoutMs / 10));
}

/**
 * Messages whose report never came become Unknow once the receipt timeout has passed; the same
 * sweep drops early reports that no message claimed within it (the store's expireAwaiting).
 */
export class ReceiptSweeper {
  private timer: { cancel(): void } | undefined;
  private sweeping: Promise<number> | undefined;
  private readonly intervalMs: number;

  constructor(private readonly options: ReceiptSweeperOptions) {
    this.intervalMs = options.intervalMs ?? sweepIntervalMs(options.timeoutMs);
  }

  start(): void {
    this.timer = this.options.scheduler.every(this.intervalMs, () => {
      this.sweeping ??= this.sweep().finally(() => (this.sweeping = undefined));
    });
  }

  async sweep(): Promise<number> {
    const { store, clock, timeoutMs, log, onExpired } = this.options;
    let total = 0;
    try {
      for (;;) {
        const now = clock.now();
        const n = await store.expireAwaiting(now - timeoutMs, now, SWEEP_LIMIT);
        total += n;
        if (n < SWEEP_LIMIT) break;
      }
      onExpired?.(total);
      if (total > 0) log.info({ expired: total }, 'receipts timed out as Unknow');
    } catch (err) {
      log.error({ err }, 'receipt sweep failed');
    }
    return total;
  }

  async stop(): Promise<void> {
    this.timer?.cancel();
    await this.sweeping;
  }
}
