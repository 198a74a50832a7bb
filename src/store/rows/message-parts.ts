/** Rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { ReportStatus } from '../../domain/messages/message.js';
import { combineParts, type PartReport } from '../../domain/messages/parts.js';

/** A message that reports name, as reports need it: its state, status and number of parts. */
export interface TargetRow {
  id: number;
  kind: string;
  account_id: number;
  state: string;
  status: string;
  parts: number;
  /** The SMPP bind's system_id that asked for its receipt (docs/smpp-server.md), if any. */
  receipt_to: string | null;
}

/** A part of a multipart message; status, code and descr stay NULL until its final report. */
export interface PartRow {
  part_no: number;
  status: ReportStatus | null;
  code: string | null;
  descr: string | null;
}

/** The message's combined report once every one of its parts has a final report, else undefined. */
export function combinedReport(rows: readonly PartRow[]): PartReport | undefined {
  const parts: PartReport[] = [];
  for (const p of rows) {
    if (p.status === null) return undefined;
    parts.push({ partNo: p.part_no, status: p.status, code: p.code ?? '', desc: p.descr ?? '' });
  }
  return parts.length === 0 ? undefined : combineParts(parts);
}
