/** Rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { InboxEntry } from '../../domain/messages/message.js';

export const INBOX_COLUMNS = `id, message_ref, route, upstream_id, kind, from_addr, to_addr, body, type, segments,
  encoding, delivered_at, report_status, report_due_at, reported, submissions, last_attempt`;

export interface InboxRow {
  id: number;
  message_ref: number;
  route: string;
  upstream_id: string;
  kind: InboxEntry['kind'];
  from_addr: string;
  to_addr: string;
  body: string;
  type: string;
  segments: number;
  encoding: string;
  delivered_at: number;
  report_status: InboxEntry['reportStatus'];
  report_due_at: number;
  /** 0/1 in SQLite, a boolean in PostgreSQL. */
  reported: boolean | number;
  submissions: number;
  last_attempt: number;
}

export function fromRow(r: InboxRow): InboxEntry {
  return {
    id: r.id,
    messageRef: r.message_ref,
    route: r.route,
    upstreamId: r.upstream_id,
    kind: r.kind,
    from: r.from_addr,
    to: r.to_addr,
    body: r.body,
    type: r.type,
    segments: r.segments,
    encoding: r.encoding,
    deliveredAt: r.delivered_at,
    reportStatus: r.report_status,
    reportDueAt: r.report_due_at,
    reported: r.reported === true || r.reported === 1,
    submissions: r.submissions,
    lastAttempt: r.last_attempt,
  };
}
