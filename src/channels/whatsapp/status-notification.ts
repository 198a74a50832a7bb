/**
 * Status notifications as Meta posts them to the webhook: entry[].changes[].value.statuses[],
 * turned into the reports every channel feeds the store. Inbound messages in the same
 * notifications are read by inbound-notification.ts; anything else is left alone.
 */
import type { Report, ReportStatus } from '../../domain/messages/message.js';
import { WHATSAPP } from './whatsapp-channel.js';
import { fieldsOf } from '../../util/unknown-values.js';

/** Meta's statuses in ours: a voice message "played" has been heard, which ranks as read. */
const STATUS: Record<string, ReportStatus> = {
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  played: 'read',
  failed: 'failed',
};

const DESCRIPTIONS: Record<string, [string, string]> = {
  sent: ['SENT', 'sent to WhatsApp'],
  delivered: ['DELIVERED', "delivered to the recipient's phone"],
  read: ['READ', 'read by the recipient'],
  played: ['PLAYED', 'played by the recipient'],
};

export interface ParsedNotification {
  reports: Report[];
  /** Statuses that could not be read (no id, an unknown status). */
  skipped: number;
}

export function statusReports(notification: unknown, now: number): ParsedNotification {
  const reports: Report[] = [];
  let skipped = 0;
  for (const status of statusObjects(notification)) {
    const report = reportOf(status, now);
    if (report) reports.push(report);
    else skipped += 1;
  }
  return { reports, skipped };
}

function* statusObjects(notification: unknown): Generator {
  for (const entry of arrayAt(notification, 'entry')) {
    for (const change of arrayAt(entry, 'changes')) {
      const value = fieldsOf(change).value;
      yield* arrayAt(value, 'statuses');
    }
  }
}

export function arrayAt(holder: unknown, key: string): unknown[] {
  const value = fieldsOf(holder)[key];
  return Array.isArray(value) ? value : [];
}

/** A status object's report; anything that is not one (no id, a status we do not know) none. */
function reportOf(object: unknown, now: number): Report | undefined {
  const s = fieldsOf(object);
  const meta = typeof s.status === 'string' ? s.status : '';
  const status = STATUS[meta];
  if (!status || typeof s.id !== 'string' || s.id === '') return undefined;
  const [code, desc] = status === 'failed' ? failure(s.errors) : (DESCRIPTIONS[meta] ?? ['', '']);
  const at = timeOf(s.timestamp, now);
  // The Cloud API is the channel's one upstream.
  return { route: WHATSAPP, upstream: '', upstreamId: s.id, status, code, desc, at };
}

/** Meta's error code and the most specific words it gives (details over message over title). */
function failure(errors: unknown): [string, string] {
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  if (typeof first !== 'object' || first === null) return ['FAILED', 'failed (no error given)'];
  const e = fieldsOf(first);
  const code = typeof e.code === 'number' || typeof e.code === 'string' ? String(e.code) : 'FAILED';
  const words = [e.title, e.message, fieldsOf(e.error_data).details].filter(
    (w): w is string => typeof w === 'string' && w !== '',
  );
  const desc = [...new Set(words)].join(': ') || 'failed';
  return [code, desc.slice(0, 500)];
}

/** Unix seconds as a string (Meta's form) or a number; a missing or absurd one is "now". */
export function timeOf(timestamp: unknown, now: number): number {
  const seconds =
    typeof timestamp === 'string' && /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : timestamp;
  return typeof seconds === 'number' && Number.isFinite(seconds) && seconds > 0
    ? seconds * 1000
    : now;
}
