import type { Logger } from 'pino';
import type { Clock, MessageStore } from '../domain/ports.js';

const SWEEP_LIMIT = 1000;

/** Messages whose report never came become Unknow once the receipt timeout has passed. */
export class ReceiptSweeper {
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<number> | undefined;

  constructor(
    private readonly store: Pick<MessageStore, 'expireAwaiting'>,
    private readonly clock: Clock,
    private readonly timeoutMs: number,
    private readonly log: Logger,
    private readonly intervalMs = Math.min(10_000, Math.max(100, timeoutMs / 10)),
    /** Told how many receipts each sweep timed out (metrics). */
    private readonly onExpired: (count: number) => void = () => {},
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.sweeping ??= this.sweep().finally(() => (this.sweeping = undefined));
    }, this.intervalMs);
    this.timer.unref();
  }

  async sweep(): Promise<number> {
    let total = 0;
    try {
      for (;;) {
        const now = this.clock.now();
        const n = await this.store.expireAwaiting(now - this.timeoutMs, now, SWEEP_LIMIT);
        total += n;
        if (n < SWEEP_LIMIT) break;
      }
      this.onExpired(total);
      if (total > 0) this.log.info({ expired: total }, 'receipts timed out as Unknow');
    } catch (err) {
      this.log.error({ err }, 'receipt sweep failed');
    }
    return total;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.sweeping;
  }
}
