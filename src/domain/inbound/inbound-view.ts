import type { InboundMedia } from './inbound-media.js';
import type { InboundMessage } from './inbound.js';

/**
 * An inbound message as the API answers it (ListInboundMessages, the admin API): times in Unix
 * seconds as the spec's receipts have them, the text of an SMS or a WhatsApp text as `Text`, the
 * message of any other WhatsApp type as `Content`, as received.
 */
export function inboundView(m: InboundMessage): Record<string, unknown> {
  return {
    InboundId: m.inboundId,
    Channel: m.channel,
    From: m.from,
    To: m.to,
    Type: m.type,
    ...(m.type === 'text' ? { Text: m.body } : { Content: parsedOrText(m.body) }),
    Complete: m.complete,
    ReceiveTime: Math.floor(m.receivedAt / 1000),
    ReplyTo: m.replyTo
      ? { SessionNo: m.replyTo.sessionNo ?? '', MessageId: m.replyTo.messageId ?? '' }
      : null,
    ...(m.media ? { Media: mediaView(m.media) } : {}),
  };
}

/**
 * The file a WhatsApp message carried: once stored, where the gateway serves it (GET the Url
 * with the account's key) and what it is; while pending, only that; once failed, why.
 */
export function mediaView(media: InboundMedia): Record<string, unknown> {
  if (media.state !== 'stored') {
    return { State: media.state, ...(media.error === undefined ? {} : { Error: media.error }) };
  }
  return {
    State: media.state,
    MediaId: media.mediaId ?? '',
    Url: media.url ?? '',
    MimeType: media.mimeType ?? '',
    FileName: media.fileName ?? '',
    FileSize: media.size ?? 0,
    Sha256: media.sha256 ?? '',
  };
}

function parsedOrText(body: string): unknown {
  try {
    const parsed: unknown = JSON.parse(body);
    return parsed;
  } catch {
    // A type stored as received that was not JSON is answered as its text.
    return body;
  }
}
