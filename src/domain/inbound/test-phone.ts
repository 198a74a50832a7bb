import type { ArrivedMessage, InboundChannel } from './inbound.js';
import { e164Of } from '../phones/phones.js';
import { smsNumberOf } from './sms-number.js';

export interface TestPhoneReply {
  channel: InboundChannel;
  from: string;
  to: string;
  text: string;
}

/**
 * A test phone's reply (the admin API's and the console's simulator) as a network would hand it
 * over: the phone in E.164, the number as routing stores it (an SMS number, or a business phone
 * for WhatsApp). `fields` names the inputs in refusals; `nonce` makes each reply a new one.
 */
export function testPhoneReply(
  input: TestPhoneReply,
  at: { region: string; now: number; nonce: string },
  fields: { from: string; to: string },
): ArrivedMessage {
  const { channel, text } = input;
  const to =
    channel === 'sms'
      ? smsNumberOf(input.to, at.region, fields.to)
      : e164Of(input.to, at.region, fields.to);
  return {
    channel,
    from: e164Of(input.from, at.region, fields.from),
    to,
    type: 'text',
    body: text,
    dedupeKey: `simulator:${at.nonce}`,
    complete: true,
    receivedAt: at.now,
  };
}
