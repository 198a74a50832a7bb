/**
 * Messages the network sends back that are not receipts: a customer's SMS reply (MO) or a
 * WhatsApp message to a business phone. Stored once, owned by the account that registered the
 * number it was sent to, or kept as unrouted for the operator (docs/inbound.md).
 */
import type { InboundMedia, MediaRef } from './inbound-media.js';

export type InboundChannel = 'sms' | 'whatsapp';

export const INBOUND_ID_PREFIX = 'in_';

export const INBOUND_CHANNELS: readonly InboundChannel[] = ['sms', 'whatsapp'];

/** What a channel hands over when something arrives. */
export interface ArrivedMessage {
  channel: InboundChannel;
  /** The sender, E.164. */
  from: string;
  /** The number it was sent to: an E.164 number or an SMS short code. */
  to: string;
  /** 'text' for SMS; the WhatsApp message type otherwise. */
  type: string;
  /** The text, or for other WhatsApp types the JSON of the message as received. */
  body: string;
  /**
   * What makes a re-delivery the same message: the SMSC's id or the wamid, else a hash of what
   * arrived. Two arrivals with one key are stored once.
   */
  dedupeKey: string;
  /** False when parts of a concatenated SMS never came and it was stored with what did. */
  complete: boolean;
  receivedAt: number;
  /** The file the message carries (a WhatsApp media id, and a document's name), if any. */
  media?: MediaRef;
}

/** One part of a concatenated SMS reply, kept until its message is whole (or waited for). */
export interface ArrivedPart {
  /** What names the message the part belongs to: SMSC, sender, number, reference, total. */
  groupKey: string;
  partNo: number;
  total: number;
  text: string;
  /** The message's sender, number and time of this part; its body is assembled from the parts. */
  arrived: Omit<ArrivedMessage, 'body' | 'dedupeKey' | 'complete'>;
}

/**
 * How long a reply the network delivers again is recognised as the same one (SMPP gives a reply
 * no id): its dedupe key holds its time to these 10 minutes (docs/inbound.md).
 */
export const REDELIVERY_WINDOW_MS = 10 * 60 * 1000;

/** Marks where parts of a concatenated reply never came, in the text stored without them. */
export const MISSING_PART = '[…]';

/**
 * The text of a reply from the parts that came, in order; a gap left by a missing part is
 * marked. Complete when every part from 1 to total is there.
 */
export function assembleParts(
  parts: readonly { partNo: number; text: string }[],
  total: number,
): { text: string; complete: boolean } {
  const byNo = new Map(parts.map((p) => [p.partNo, p.text]));
  const texts: string[] = [];
  for (let n = 1; n <= total; n++) texts.push(byNo.get(n) ?? MISSING_PART);
  return { text: texts.join(''), complete: byNo.size >= total };
}

/** The latest message the account sent to that phone from that number, when there is one. */
export interface ReplyLink {
  sessionNo?: string;
  messageId?: string;
}

export interface InboundMessage extends ArrivedMessage {
  /** The public id, `in_` and random characters. */
  inboundId: string;
  /** The owner; undefined while no account has registered the number (unrouted). */
  accountId: number | undefined;
  replyTo: ReplyLink | undefined;
  /** The store's order of arrival: what cursors page by. */
  seq: number;
  /** The file it carries, fetched into the media store (inbound-media.ts). */
  media: InboundMedia | undefined;
}

/** One page of inbound messages, newest first, and where the next (older) page starts. */
export interface InboundPage {
  messages: InboundMessage[];
  nextCursor: number | undefined;
}

export interface InboundFilter {
  /** Only this account's; the unrouted ones when null; every account's when undefined (admin). */
  accountId: number | null | undefined;
  /** The customer's number (E.164). */
  phone?: string;
  /** The account's number it was sent to. */
  number?: string;
  channel?: InboundChannel;
  /** Received at or after, ms. */
  since?: number;
  /** Received before, ms. */
  until?: number;
  /** Older than this seq (a cursor from an earlier page). */
  before?: number;
  limit: number;
}

/** The business-phone channels an inbound message of a channel may be routed by. */
export function routingChannels(channel: InboundChannel): readonly string[] {
  // A business phone delivers through the simulator or the Cloud API; either receives WhatsApp.
  return channel === 'sms' ? ['sms'] : ['simulator', 'whatsapp'];
}
