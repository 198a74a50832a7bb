import { REDELIVERY_WINDOW_MS, assembleParts } from '../../domain/inbound/inbound.js';
import { arrivedMedia, type InboundMedia } from '../../domain/inbound/inbound-media.js';
import type {
  ArrivedMessage,
  InboundChannel,
  InboundFilter,
  InboundMessage,
  InboundPage,
} from '../../domain/inbound/inbound.js';

/** Rows of inbound_messages as both adapters read them. */
export interface InboundRow {
  seq: number;
  inbound_id: string;
  dedupe_key: string;
  channel: string;
  account_id: number | null;
  from_addr: string;
  to_addr: string;
  type: string;
  body: string;
  complete: number | boolean;
  received_at: number;
  reply_session_no: string | null;
  reply_message_id: string | null;
  /** JSON of the InboundMedia, for a message that carries a file. */
  media: string | null;
}

export const INBOUND_COLUMNS = `seq, inbound_id, dedupe_key, channel, account_id, from_addr, to_addr,
  type, body, complete, received_at, reply_session_no, reply_message_id, media`;

export function toInbound(r: InboundRow): InboundMessage {
  const link =
    r.reply_session_no === null && r.reply_message_id === null
      ? undefined
      : {
          ...(r.reply_session_no === null ? {} : { sessionNo: r.reply_session_no }),
          ...(r.reply_message_id === null ? {} : { messageId: r.reply_message_id }),
        };
  return {
    seq: r.seq,
    inboundId: r.inbound_id,
    dedupeKey: r.dedupe_key,
    // Written by the store from an InboundChannel only.
    channel: r.channel as InboundChannel,
    accountId: r.account_id === null ? undefined : r.account_id,
    from: r.from_addr,
    to: r.to_addr,
    type: r.type,
    body: r.body,
    complete: r.complete === 1 || r.complete === true,
    receivedAt: r.received_at,
    replyTo: link,
    // Written by the store from an InboundMedia only.
    media: r.media === null ? undefined : (JSON.parse(r.media) as InboundMedia),
  };
}

/**
 * The SQL that finds the reply link: the latest message of the account to that phone. Its
 * parameters, in order: the phone (E.164), the account, and for WhatsApp the business phone;
 * `p(n)` writes the adapter's placeholder for the n-th.
 */
export function replyLinkQuery(channel: InboundChannel, p: (n: number) => string): string {
  // WhatsApp: sent from that business phone; SMS: any SMS of the account to the number (a
  // sender id need not be the number the reply comes back to).
  return channel === 'sms'
    ? `SELECT session_no, message_id FROM messages
       WHERE e164 = ${p(1)} AND account_id = ${p(2)} AND kind = 'sms'
       ORDER BY accepted_at DESC, id DESC LIMIT 1`
    : `SELECT session_no, message_id FROM messages
       WHERE e164 = ${p(1)} AND account_id = ${p(2)} AND kind = 'business'
         AND business_phone = ${p(3)} ORDER BY accepted_at DESC, id DESC LIMIT 1`;
}

/** The columns an arrival is inserted with, in the order of inboundValues(). */
export const INBOUND_INSERT_COLUMNS = `inbound_id, dedupe_key, channel, account_id, from_addr, to_addr,
  type, body, complete, received_at, reply_session_no, reply_message_id, media, media_state, media_due_at`;

/** An arrival's row values; `flag` writes a boolean as the adapter stores one. */
export function inboundValues(
  row: { arrived: ArrivedMessage; inboundId: string; accountId: number | undefined },
  link: readonly (string | null)[],
  flag: (b: boolean) => unknown,
): unknown[] {
  const m = row.arrived;
  const media = arrivedMedia(m.media, row.accountId !== undefined);
  return [
    row.inboundId,
    m.dedupeKey,
    m.channel,
    row.accountId ?? null,
    m.from,
    m.to,
    m.type,
    m.body,
    flag(m.complete),
    m.receivedAt,
    link[0] ?? null,
    link[1] ?? null,
    media ? JSON.stringify(media) : null,
    media?.state ?? null,
    // Due at once: the fetcher's next pass takes it.
    media?.state === 'pending' ? 0 : null,
  ];
}

/** A part row as both adapters read it back. */
export interface PartRow {
  part_no: number;
  total: number;
  body: string;
  from_addr: string;
  to_addr: string;
  received_at: number;
}

/**
 * The arrival a group of parts makes: its text assembled in order (gaps marked), its time the
 * first part's, its dedupe key the group's with that time to the 10 minutes, so that a group an
 * SMSC delivers again soon after is stored once and the same reply sent again later is not lost.
 */
export function arrivalOfParts(groupKey: string, rows: readonly PartRow[]): ArrivedMessage {
  // Called with the parts of a group, never none.
  const first = rows[0] as PartRow;
  const total = first.total;
  const receivedAt = Math.min(...rows.map((r) => r.received_at));
  const { text, complete } = assembleParts(
    rows.map((r) => ({ partNo: r.part_no, text: r.body })),
    total,
  );
  return {
    channel: 'sms',
    from: first.from_addr,
    to: first.to_addr,
    type: 'text',
    body: text,
    dedupeKey: `${groupKey}:${Math.floor(receivedAt / REDELIVERY_WINDOW_MS)}`,
    complete,
    receivedAt,
  };
}

/** The WHERE clause of a page of inbound messages, with its values, for either adapter. */
export function inboundConditions(
  f: InboundFilter,
  p: (n: number) => string,
): { where: string; values: unknown[] } {
  const values: unknown[] = [];
  const next = (v: unknown) => {
    values.push(v);
    return p(values.length);
  };
  const parts = ['TRUE'];
  if (f.accountId === null) parts.push('account_id IS NULL');
  if (typeof f.accountId === 'number') parts.push(`account_id = ${next(f.accountId)}`);
  if (f.phone !== undefined) parts.push(`from_addr = ${next(f.phone)}`);
  if (f.number !== undefined) parts.push(`to_addr = ${next(f.number)}`);
  if (f.channel !== undefined) parts.push(`channel = ${next(f.channel)}`);
  if (f.since !== undefined) parts.push(`received_at >= ${next(f.since)}`);
  if (f.until !== undefined) parts.push(`received_at < ${next(f.until)}`);
  if (f.before !== undefined) parts.push(`seq < ${next(f.before)}`);
  return { where: parts.join(' AND '), values };
}

/** A page from `limit + 1` rows read: the extra row only says that there is a next page. */
export function inboundPage(rows: readonly InboundRow[], limit: number): InboundPage {
  const messages = rows.slice(0, limit).map(toInbound);
  const last = messages.at(-1);
  return { messages, nextCursor: rows.length > limit && last ? last.seq : undefined };
}
