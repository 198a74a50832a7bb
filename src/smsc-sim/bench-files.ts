import { closeSync, openSync, renameSync, writeFileSync, writeSync } from 'node:fs';

/**
 * One line per accepted submit_sm, `<epoch ms> <destination>`, for a benchmark that correlates
 * its accept times with the SMSC's. Lines are buffered and written together, so a run of 100,000
 * submits costs a few hundred writes, not 100,000.
 */
export class SubmitLog {
  private lines: string[] = [];
  private readonly fd: number;

  constructor(file: string) {
    this.fd = openSync(file, 'w');
  }

  add(destination: string, atMs: number): void {
    this.lines.push(`${atMs.toFixed(3)} ${destination}\n`);
    if (this.lines.length >= 4096) this.flush();
  }

  flush(): void {
    if (this.lines.length === 0) return;
    writeSync(this.fd, this.lines.join(''));
    this.lines = [];
  }

  close(): void {
    this.flush();
    closeSync(this.fd);
  }
}

/** Replaces `file` with the stats as JSON in one rename, so a reader never sees half of it. */
export function writeStatsFile(file: string, stats: object): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(stats));
  renameSync(`${file}.tmp`, file);
}
