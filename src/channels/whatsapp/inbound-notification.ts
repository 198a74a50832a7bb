/**
 * Messages people send to a business phone, as Meta posts them to the webhook:
 * entry[].changes[].value.messages[], with the business phone in value.metadata. Each becomes an
 * arrival for the inbound store, keyed by its wamid so that Meta's retries are stored once.
 */
import type { ArrivedMessage } from '../../domain/inbound/inbound.js';
import { arrayAt, timeOf } from './status-notification.js';

interface MessageObject {
  id?: unknown;
  from?: unknown;
  type?: unknown;
  timestamp?: unknown;
  text?: { body?: unknown };
}

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
      const value = (change as { value?: unknown } | null)?.value;
      const metadata = (value as { metadata?: { display_phone_number?: unknown } } | null)
        ?.metadata;
      const to = e164(metadata?.display_phone_number);
      for (const m of arrayAt(value, 'messages')) {
        const read = to === undefined ? undefined : arrivalOf(m as MessageObject, to, now);
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
function arrivalOf(m: MessageObject, to: string, now: number): ArrivedMessage | undefined {
  if (typeof m !== 'object' || m === null) return undefined;
  const from = e164(m.from);
  if (typeof m.id !== 'string' || m.id === '' || from === undefined) return undefined;
  const type = typeof m.type === 'string' && m.type !== '' ? m.type : 'unknown';
  const text = type === 'text' && typeof m.text?.body === 'string' ? m.text.body : undefined;
  return {
    channel: 'whatsapp',
    from,
    to,
    type: text === undefined && type === 'text' ? 'unknown' : type,
    body: text ?? JSON.stringify(m),
    dedupeKey: m.id,
    complete: true,
    receivedAt: timeOf(m.timestamp, now),
  };
}
