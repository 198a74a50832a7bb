/**
 * Messages people send to a business phone, as Meta posts them to the webhook:
 * entry[].changes[].value.messages[], with the business phone in value.metadata. Each becomes an
 * arrival for the inbound store, keyed by its wamid so that Meta's retries are stored once.
 */
import type { ArrivedMessage } from '../../domain/inbound/inbound.js';
import { MEDIA_MESSAGE_TYPES, type MediaRef } from '../../domain/inbound/inbound-media.js';
import { arrayAt, timeOf } from './status-notification.js';
import { fieldsOf } from '../../util/unknown-values.js';

export interface ParsedMessages {
  arrived: ArrivedMessage[];
  /** Messages that could not be read (no wamid, no sender, no business phone). */
  skipped: number;
}

/** A WhatsApp id or number as E.164: Meta writes them as digits without the '+'. */
function e164(raw: unknown): string | undefined {
  const digits = typeof raw === 'string' ? raw.replace(/\D/g, '') : '';
  return digits.length >= 6 && digits.length <= 15 ? `+${digits}` : undefined;
}

export function inboundMessages(notification: unknown, now: number): ParsedMessages {
  const arrived: ArrivedMessage[] = [];
  let skipped = 0;
  for (const entry of arrayAt(notification, 'entry')) {
    for (const change of arrayAt(entry, 'changes')) {
      const value = fieldsOf(change).value;
      const to = e164(fieldsOf(fieldsOf(value).metadata).display_phone_number);
      for (const m of arrayAt(value, 'messages')) {
        const read = to === undefined ? undefined : arrivalOf(m, to, now);
        if (read) arrived.push(read);
        else skipped += 1;
      }
    }
  }
  return { arrived, skipped };
}

/**
 * Text as its body; every other type (image, location, contacts, interactive replies, reactions,
 * and types this code does not know) as the message object received, JSON, so nothing is lost.
 */
function arrivalOf(object: unknown, to: string, now: number): ArrivedMessage | undefined {
  // Anything but an object has no fields, so no id: it is skipped like a message without one.
  const m = fieldsOf(object);
  const from = e164(m.from);
  if (typeof m.id !== 'string' || m.id === '' || from === undefined) return undefined;
  const type = typeof m.type === 'string' && m.type !== '' ? m.type : 'unknown';
  const text = type === 'text' ? textBody(m.text) : undefined;
  const media = mediaRefOf(m, type);
  return {
    channel: 'whatsapp',
    from,
    to,
    type: text === undefined && type === 'text' ? 'unknown' : type,
    body: text ?? JSON.stringify(m),
    dedupeKey: m.id,
    complete: true,
    receivedAt: timeOf(m.timestamp, now),
    ...(media === undefined ? {} : { media }),
  };
}

function textBody(text: unknown): string | undefined {
  const body = fieldsOf(text).body;
  return typeof body === 'string' ? body : undefined;
}

/**
 * Meta's media id of an image, video, audio, document or sticker (`m[type].id`), and the name
 * a document was sent with.
 */
function mediaRefOf(m: Readonly<Record<string, unknown>>, type: string): MediaRef | undefined {
  if (!MEDIA_MESSAGE_TYPES.includes(type)) return undefined;
  const object = fieldsOf(m[type]);
  const id = object.id;
  // Graph ids are digits; anything else is no id the fetcher could put in a URL path.
  if (typeof id !== 'string' || !/^[0-9A-Za-z_.-]{1,128}$/.test(id)) return undefined;
  const fileName = typeof object.filename === 'string' ? safeFileName(object.filename) : '';
  return fileName === '' ? { ref: id } : { ref: id, fileName };
}

/** A name fit for a Content-Disposition: no path, no control characters, not too long. */
export function safeFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  const printable = Array.from(base).filter((ch) => ch >= ' ' && ch !== '\u007f' && ch !== '"');
  return printable.join('').trim().slice(0, 200);
}
