import type { Logger } from 'pino';
import type { Report } from '../domain/messages/message.js';
import type { Clock, MessageStore } from '../domain/ports.js';
import type { RecordGate } from './record-gate.js';

/** Told of every batch of reports once it is durably applied (metrics). */
export interface ReportObserver {
  reportsApplied(reports: readonly Report[]): void;
}

interface Waiting {
  reports: Report[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

export interface ReportSinkExtras {
  observer?: ReportObserver;
  /** Holds back a report whose submit is answered and not yet recorded (dispatch/record-gate). */
  gate?: RecordGate;
}

/**
 * Channels hand reports in as they come; they are applied in batches (one transaction each) and
 * each caller learns when its reports are durable, so a channel acknowledges upstream only then.
 */
export class ReportSink {
  private waiting: Waiting[] = [];
  private scheduled = false;
  applied = 0;
  unmatched = 0;

  constructor(
    private readonly store: Pick<MessageStore, 'applyReports'>,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly extras: ReportSinkExtras = {},
  ) {}

  readonly push = (reports: Report[]): Promise<void> => {
    // A report for a submit still being recorded goes on once it is, not to the early reports.
    const recorded = this.extras.gate?.whenRecorded(reports);
    return recorded ? recorded.then(() => this.enqueue(reports)) : this.enqueue(reports);
  };

  private enqueue(reports: Report[]): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ reports, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => void this.flush());
      }
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    this.scheduled = false;
    const reports = batch.flatMap((w) => w.reports);
    try {
      const { unmatched } = await this.store.applyReports(reports, this.clock.now());
      this.applied += reports.length - unmatched;
      this.unmatched += unmatched;
      this.extras.observer?.reportsApplied(reports);
      if (unmatched > 0)
        this.log.warn({ unmatched }, 'reports for unknown upstream ids kept for a late match');
      for (const w of batch) w.resolve();
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
