import type { ReportStatus } from './message.js';

/**
 * A message's status only moves forward: duplicates and late arrivals (a delivered after a read)
 * are kept in the history but never move it back. failed ranks with delivered, so a read can
 * still overtake a failed (the read proves the delivery) but a delivered cannot.
 */
const RANK: Record<string, number> = {
  accepted: 0,
  scheduled: 0,
  sent: 1,
  delivered: 2,
  failed: 2,
  unknown: 2,
  read: 3,
};

/** The status after a report, or undefined when the report does not move it. */
export function advanceStatus(current: string, incoming: ReportStatus): string | undefined {
  return (RANK[incoming] ?? 0) > (RANK[current] ?? 0) ? incoming : undefined;
}

/**
 * Orders reports as they happened: by time, and reports of one instant (a network stamping whole
 * seconds, or the simulator) in the order statuses go, sent before delivered before read.
 */
export function byOccurrence(
  a: { at: number; status: string },
  b: { at: number; status: string },
): number {
  return a.at - b.at || (RANK[a.status] ?? 0) - (RANK[b.status] ?? 0);
}
