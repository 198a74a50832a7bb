/**
 * Items due at a time, fired by one timer rather than one per message: at tens of thousands of
 * messages a second, timers per message would cost more than the messages.
 */
export class DueQueue<T> {
  private items: { dueAt: number; item: T }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  constructor(
    private readonly fire: (items: T[]) => void,
    private readonly now: () => number,
  ) {}

  add(dueAt: number, item: T): void {
    const last = this.items[this.items.length - 1];
    this.items.push({ dueAt, item });
    // Delays are mostly constant, so items arrive in order; sort only when one does not.
    if (last && last.dueAt > dueAt) this.items.sort((a, b) => a.dueAt - b.dueAt);
    this.arm();
  }

  get size(): number {
    return this.items.length;
  }

  clear(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.timerAt = Infinity;
    this.items = [];
  }

  private arm(): void {
    const head = this.items[0];
    if (!head || head.dueAt >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = head.dueAt;
    this.timer = setTimeout(() => this.drain(), Math.max(0, head.dueAt - this.now()));
  }

  private drain(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = this.now();
    let n = 0;
    // n is below the length: the item is there.
    while (n < this.items.length && (this.items[n] as { dueAt: number }).dueAt <= now) n++;
    const due = this.items.splice(0, n).map((e) => e.item);
    if (due.length > 0) this.fire(due);
    this.arm();
  }
}
