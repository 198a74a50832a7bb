/**
 * Work that runs in passes when nudged (a timer, new rows, room opened): one pass at a time; a
 * nudge during a pass, or a pass that says more is waiting, runs another right after it. The
 * fetcher of inbound media and the SMPP receipt deliverer share it.
 */
export class Passes {
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;

  /** `pass` answers true when more is waiting at once (a full batch). */
  constructor(private readonly pass: () => Promise<boolean>) {}

  nudge(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.loop().finally(() => (this.running = undefined));
  }

  /** No pass starts after this; answers once the one under way is done. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      if (await this.pass()) this.again = true;
    } while (this.again && !this.stopped);
  }
}
