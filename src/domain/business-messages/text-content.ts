/** The text content object: the body and whether the recipient's client may preview its URL. */
import { invalid } from '../errors.js';
import { isAbsent, refuseUnknownFields, requiredString } from './fields.js';
import type { JsonObject } from './fields.js';

export interface TextContent {
  body: string;
  preview_url?: boolean;
}

/** WhatsApp's limit for a text message body. */
export const TEXT_BODY_MAX = 4096;

export function parseTextContent(obj: JsonObject, base: string): TextContent {
  refuseUnknownFields(obj, ['body', 'preview_url'], base, 'for text');
  const body = requiredString(obj, 'body', base, TEXT_BODY_MAX);
  const previewUrl = obj.preview_url;
  if (isAbsent(previewUrl)) return { body };
  // "true" and 1 are refused rather than guessed at: a flag the client got wrong may matter.
  if (typeof previewUrl !== 'boolean')
    throw invalid(`${base}.preview_url`, 'must be true or false');
  return { body, preview_url: previewUrl };
}
