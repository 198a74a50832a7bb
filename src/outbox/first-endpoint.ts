import type { Logger } from 'pino';
import type { Scheduler } from '../domain/ports.js';

/** How often a node without an endpoint looks for one another node or the CLI created. */
export const ENDPOINT_CHECK_MS = 5_000;

export interface FirstEndpointOptions {
  /** Starts what delivers events (the outbox thread); resolves once it runs. */
  start(): Promise<void>;
  /** Whether any account has a webhook endpoint. */
  anyEndpoint(): Promise<boolean>;
  scheduler: Scheduler;
  log: Logger;
}

/**
 * Starts event delivery once there is an endpoint to deliver to: a gateway nobody subscribed to
 * pays neither the outbox thread's start (it loads its own modules: some 0.35 s of CPU) nor its
 * memory. An endpoint created through this node starts it at once; one created elsewhere
 * (another node, `wirebird webhooks create`) at the next check. Events are written with their
 * change either way (only for endpoints that exist), so a late start delays them and loses none.
 */
export class StartOnFirstEndpoint {
  private started: Promise<void> | undefined;
  private check: { cancel(): void } | undefined;
  private stopped = false;

  constructor(private readonly o: FirstEndpointOptions) {}

  /** Starts delivery now if an endpoint exists, else looks again every ENDPOINT_CHECK_MS. */
  async start(): Promise<void> {
    // A thread that cannot start with an endpoint waiting fails the boot, as it always has.
    if (await this.o.anyEndpoint()) return (this.started = this.o.start());
    if (this.stopped) return;
    this.check = this.o.scheduler.every(ENDPOINT_CHECK_MS, () => void this.lookAgain());
  }

  /** An endpoint was created or changed here, or an event written: delivery must run. */
  wanted(): void {
    if (this.started || this.stopped) return;
    this.startNow().catch((err: unknown) =>
      this.o.log.error({ err }, 'event delivery did not start; trying again at the next check'),
    );
  }

  /** Stops looking for an endpoint, and stops delivery (`stop`) if it was started. */
  async stop(stop: () => Promise<void>): Promise<void> {
    this.stopped = true;
    this.check?.cancel();
    if (!this.started) return;
    // A start under way ends first, so that what it started is what stops.
    await this.started.catch(() => undefined);
    await stop();
  }

  private async lookAgain(): Promise<void> {
    if (this.started || this.stopped) return;
    try {
      const found = await this.o.anyEndpoint();
      if (found && !this.stoppedMeanwhile()) await this.startNow();
    } catch (err) {
      this.o.log.error({ err }, 'event delivery did not start; trying again at the next check');
    }
  }

  /** The gateway may stop while the store answers a check: nothing starts after its stop. */
  private stoppedMeanwhile(): boolean {
    return this.stopped;
  }

  private startNow(): Promise<void> {
    this.check?.cancel();
    this.started ??= this.o.start().catch((err: unknown) => {
      // Not started after all: the next check (or endpoint) tries again.
      this.started = undefined;
      if (!this.stopped) {
        this.check = this.o.scheduler.every(ENDPOINT_CHECK_MS, () => void this.lookAgain());
      }
      throw err;
    });
    return this.started;
  }
}
