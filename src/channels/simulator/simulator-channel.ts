import type { Logger } from 'pino';
import type {
  ClaimedMessage,
  InboxEntry,
  Report,
  ReportStatus,
} from '../../domain/messages/message.js';
import type { Clock, InboxStore } from '../../domain/ports.js';
import { costCount, encodingOf } from '../../domain/segments/segments.js';
import type { Channel, ChannelStatus, ReportListener, SubmitResult } from '../channel.js';
import { DueQueue } from './report-queue.js';
import { testOutcomeOf } from './test-numbers.js';

import { SIMULATOR } from '../sms-routing.js';

export { SIMULATOR };
const DEFAULT_SENDER = 'WIREBIRD';
/** A pending report this long overdue was left by a node that died (or failed to send it). */
export const ADOPT_AFTER_MS = 10_000;

export interface SimulatorOptions {
  inbox: InboxStore;
  clock: Clock;
  /** How long after delivery the handset's report comes. */
  delayMs: number;
  log: Logger;
  /** Told of new inbox entries and of entries whose report was applied (the console's live inbox). */
  onInboxChange?: (change: { kind: 'delivered' | 'reported'; ids: number[] }) => void;
}

/**
 * A handset network in a box: keeps every delivery in an inbox per recipient (durably, so that a
 * restart neither loses a pending report nor delivers a resubmitted message twice) and reports
 * after a delay, with outcomes chosen by the test numbers.
 */
export class SimulatorChannel implements Channel {
  readonly name = SIMULATOR;
  private listener: ReportListener | undefined;
  private readonly queue: DueQueue<InboxEntry>;
  /** Inbox ids whose report this node holds, so that adopting never schedules one twice. */
  private readonly held = new Set<number>();
  private adopter: NodeJS.Timeout | undefined;
  duplicates = 0;
  private readonly inbox: InboxStore;
  private readonly clock: Clock;
  private readonly delayMs: number;
  private readonly log: Logger;
  private readonly onInboxChange: SimulatorOptions['onInboxChange'];

  constructor(options: SimulatorOptions) {
    ({
      inbox: this.inbox,
      clock: this.clock,
      delayMs: this.delayMs,
      log: this.log,
      onInboxChange: this.onInboxChange,
    } = options);
    this.queue = new DueQueue(
      (due) => void this.report(due),
      () => this.clock.now(),
    );
  }

  async start(onReports: ReportListener): Promise<void> {
    this.listener = onReports;
    for (const entry of await this.inbox.pendingInboxReports()) this.schedule(entry);
    this.adopter = setInterval(() => void this.adoptOverdue(), ADOPT_AFTER_MS);
    this.adopter.unref();
  }

  /**
   * Nodes sharing a store share the inbox, but a report waits in the memory of the node that
   * delivered it: one that died leaves its reports pending. Any node takes over those overdue
   * by ADOPT_AFTER_MS (sending one twice is harmless: a second report changes no receipt).
   */
  async adoptOverdue(): Promise<number> {
    const cutoff = this.clock.now() - ADOPT_AFTER_MS;
    let adopted = 0;
    try {
      for (const entry of await this.inbox.pendingInboxReports()) {
        // Entries read from the inbox carry the id the store gave them.
        if (entry.reportDueAt > cutoff || this.held.has(entry.id as number)) continue;
        this.schedule(entry);
        adopted++;
      }
    } catch (err) {
      this.log.error({ err }, 'pending simulator reports not read');
    }
    return adopted;
  }

  async submit(messages: readonly ClaimedMessage[]): Promise<SubmitResult[]> {
    const now = this.clock.now();
    const results: SubmitResult[] = [];
    const entries: InboxEntry[] = [];
    for (const m of messages) {
      const outcome = testOutcomeOf(m.e164);
      if (outcome === 'refuse') {
        results.push({
          kind: 'rejected',
          code: 'REJECTD',
          desc: 'refused at submission (test number 0002)',
        });
        continue;
      }
      const reportStatus: InboxEntry['reportStatus'] =
        outcome === 'fail' ? 'failed' : outcome === 'silent' ? 'none' : 'delivered';
      entries.push(toEntry(m, reportStatus, now, now + this.delayMs));
      results.push({ kind: 'accepted', upstreamId: upstreamIdOf(m) });
    }
    const delivered = await this.inbox.deliverManyToInbox(entries);
    this.onInboxChange?.({
      kind: 'delivered',
      // Entries the store answers carry the id it gave them.
      ids: delivered.flatMap((d) => (d.duplicate ? [] : [d.entry.id as number])),
    });
    for (const { entry, duplicate } of delivered) {
      if (duplicate) {
        this.duplicates++;
        this.log.warn(
          { messageRef: entry.messageRef },
          'resubmission recognised; not delivered twice',
        );
      } else {
        // Due at once with a zero delay: the report sink holds it until the dispatcher has
        // recorded this submit (dispatch/record-gate.ts), as for any channel's early report.
        this.schedule(entry);
      }
    }
    return results;
  }

  async stop(): Promise<void> {
    clearInterval(this.adopter);
    this.queue.clear();
    this.held.clear();
  }

  status(): ChannelStatus {
    return { name: this.name, state: 'up', binds: [] };
  }

  private schedule(entry: InboxEntry): void {
    if (entry.reportStatus === 'none') return;
    // Scheduled only after the store wrote the entry and gave it an id.
    this.held.add(entry.id as number);
    this.queue.add(entry.reportDueAt, entry);
  }

  private async report(entries: InboxEntry[]): Promise<void> {
    if (!this.listener) return;
    try {
      await this.listener(entries.flatMap((e) => reportsFor(e, this.clock.now())));
      // Scheduled entries were written: each has its id.
      const ids = entries.map((e) => e.id as number);
      await this.inbox.markInboxReported(ids);
      this.onInboxChange?.({ kind: 'reported', ids });
    } catch (err) {
      // Left unreported in the inbox: adopted again once overdue, or at the next start.
      this.log.error({ err }, 'simulator reports not applied');
    } finally {
      // (the same entries: each has its id)
      for (const e of entries) this.held.delete(e.id as number);
    }
  }
}

function upstreamIdOf(m: ClaimedMessage): string {
  // Stable per message, so a resubmission after a crash is recognised as the same delivery.
  return `sim-${m.id}`;
}

function toEntry(
  m: ClaimedMessage,
  reportStatus: InboxEntry['reportStatus'],
  now: number,
  dueAt: number,
): InboxEntry {
  const sms = m.kind === 'sms';
  return {
    messageRef: m.id,
    route: SIMULATOR,
    upstreamId: upstreamIdOf(m),
    kind: m.kind,
    from: sms ? m.senderId || DEFAULT_SENDER : m.businessPhone,
    to: m.e164,
    body: m.body,
    type: m.type,
    segments: sms ? costCount(m.body) : 1,
    encoding: sms ? encodingOf(m.body) : 'json',
    deliveredAt: now,
    reportStatus,
    reportDueAt: dueAt,
    // Nothing will ever be reported for the silent test number: it is not pending.
    reported: reportStatus === 'none',
    submissions: 1,
    lastAttempt: m.attempts,
  };
}

const DESCRIPTIONS: Record<string, [string, string]> = {
  delivered: ['DELIVRD', 'delivered to the handset'],
  failed: ['UNDELIV', 'undeliverable (test number 0001)'],
};

function reportsFor(e: InboxEntry, now: number): Report[] {
  // reportsFor is only called for entries whose reportStatus is not 'none'.
  const status = e.reportStatus as ReportStatus;
  const [code, desc] = DESCRIPTIONS[status] ?? ['UNKNOWN', status];
  // The simulator is its own upstream. Literals, not spreads: this runs for every message.
  const { route, upstreamId } = e;
  const final: Report = { route, upstream: '', upstreamId, at: now, status, code, desc };
  if (e.kind !== 'business') return [final];
  // Business messages go through "sent" first, as WhatsApp's statuses do.
  return [
    { route, upstream: '', upstreamId, at: now, status: 'sent', code: 'SENT', desc: 'sent' },
    final,
  ];
}
