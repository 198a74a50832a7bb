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
  };
}

function parsedOrText(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    // A type stored as received that was not JSON is answered as its text.
    return body;
  }
}
