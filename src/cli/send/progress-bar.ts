/** Counts so far, for the progress line and the summary. */
export interface Tally {
  rows: number;
  accepted: number;
  failed: number;
}

const WIDTH = 24;

/**
 * One line on stderr, redrawn in place on a terminal (and printed every few seconds otherwise,
 * so a log keeps a trace): rows done of all, accepted, failed, rate and time left.
 */
export class ProgressBar {
  private lastDraw = 0;
  private lastRows = -1;
  private readonly started: number;

  constructor(
    private readonly total: number,
    private readonly out: NodeJS.WriteStream,
    private readonly now: () => number = Date.now,
    /** Rows already done by an earlier run: not part of this run's rate. */
    private readonly resumedRows = 0,
  ) {
    this.started = now();
  }

  update(t: Tally, final = false): void {
    const now = this.now();
    const every = this.out.isTTY ? 100 : 2000;
    if (!final && now - this.lastDraw < every) return;
    // A log already holding this count needs no second line saying the same.
    if (final && !this.out.isTTY && t.rows === this.lastRows) return;
    this.lastDraw = now;
    this.lastRows = t.rows;
    const line = this.line(t, now);
    if (this.out.isTTY) this.out.write(`\r${line}\x1b[K${final ? '\n' : ''}`);
    else this.out.write(`${line}\n`);
  }

  line(t: Tally, now: number): string {
    const share = this.total === 0 ? 1 : t.rows / this.total;
    const filled = Math.round(share * WIDTH);
    const seconds = Math.max(0.001, (now - this.started) / 1000);
    const rate = (t.rows - this.resumedRows) / seconds;
    const left = rate > 0 ? (this.total - t.rows) / rate : undefined;
    return [
      `[${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}]`,
      `${t.rows}/${this.total} (${Math.floor(share * 100)}%)`,
      `accepted ${t.accepted}`,
      `failed ${t.failed}`,
      `${Math.round(rate)}/s`,
      `ETA ${left === undefined ? '?' : formatSeconds(left)}`,
    ].join('  ');
  }
}

export function formatSeconds(s: number): string {
  if (s < 60) return `${Math.ceil(s)}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${Math.ceil(s % 60)}s` : `${Math.floor(m / 60)}h${m % 60}m`;
}
