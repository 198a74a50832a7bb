/**
 * The body of `POST /{phone number id}/messages` for one stored business message. The stored
 * content is already WhatsApp's `{type, <type>: {...}}` (SendMessage validated and normalised it),
 * so the mapping is the envelope around it; media ids Wirebird issued are swapped for Meta's first.
 */
import type { BusinessContent } from '../../domain/business-messages/content.js';

export type MessageRequest = {
  messaging_product: 'whatsapp';
  recipient_type: 'individual';
  to: string;
} & BusinessContent;

/** The content as SendMessage stored it; only ever parsed from what SendMessage wrote. */
export function storedContent(body: string): BusinessContent {
  // Only ever parsed from what SendMessage validated and stored.
  return JSON.parse(body) as BusinessContent;
}

export function messageRequest(to: string, content: BusinessContent): MessageRequest {
  return { messaging_product: 'whatsapp', recipient_type: 'individual', to, ...content };
}
