import type { ReportStatus } from './message.js';

/** The final report of one part of a message sent as several submits. */
export interface PartReport {
  partNo: number;
  status: ReportStatus;
  code: string;
  desc: string;
}

/**
 * A multipart message is final when every part is: delivered when all parts were; otherwise the
 * first failing part (in part order) decides, and a part nobody could vouch for makes it unknown.
 */
export function combineParts(parts: readonly PartReport[]): PartReport {
  const ordered = [...parts].sort((a, b) => a.partNo - b.partNo);
  const failed = ordered.find((p) => p.status === 'failed');
  if (failed) return failed;
  const unknown = ordered.find((p) => p.status === 'unknown');
  if (unknown) return unknown;
  const last = ordered[ordered.length - 1];
  if (!last) throw new RangeError('a message has at least one part');
  return {
    ...last,
    desc: ordered.length > 1 ? `all ${ordered.length} parts ${last.desc}` : last.desc,
  };
}
