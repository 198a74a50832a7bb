/**
 * SendMessage's Type and Content, validated and normalised into the WhatsApp Cloud API message
 * object of that type, so a channel can send {messaging_product, recipient_type, to, ...content}.
 */
import { invalid, missing } from '../errors.js';
import { isAbsent, isOneOf, isPlainObject, mustBeOneOf, refuseUnknownFields } from './fields.js';
import type { JsonObject } from './fields.js';
import { parseLocationContent } from './location-content.js';
import type { LocationContent } from './location-content.js';
import { parseMedia } from './media.js';
import type { CaptionedMedia, DocumentMedia, MediaRef } from './media.js';
import { parseTemplateContent } from './template-content.js';
import type { TemplateContent } from './template-content.js';
import { parseTextContent } from './text-content.js';
import type { TextContent } from './text-content.js';

export type { MediaRef } from './media.js';
export type { TemplateContent } from './template-content.js';
export type { TemplateComponent } from './template-component.js';
export type { TemplateParameter } from './template-parameter.js';
export { previewOf } from './preview-of.js';

export const BUSINESS_MESSAGE_TYPES = [
  'text',
  'image',
  'video',
  'audio',
  'document',
  'location',
  'sticker',
  'template',
] as const;
export type BusinessMessageType = (typeof BUSINESS_MESSAGE_TYPES)[number];

export type BusinessContent =
  | { type: 'text'; text: TextContent }
  | { type: 'image'; image: CaptionedMedia }
  | { type: 'video'; video: CaptionedMedia }
  | { type: 'audio'; audio: MediaRef }
  | { type: 'document'; document: DocumentMedia }
  | { type: 'sticker'; sticker: MediaRef }
  | { type: 'location'; location: LocationContent }
  | { type: 'template'; template: TemplateContent };

function parseType(value: unknown): BusinessMessageType {
  if (isAbsent(value)) throw missing('Type');
  const type = typeof value === 'string' ? value.toLowerCase() : value;
  if (!isOneOf(type, BUSINESS_MESSAGE_TYPES))
    throw invalid('Type', mustBeOneOf(BUSINESS_MESSAGE_TYPES));
  return type;
}

function parseJson(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    throw invalid('Content', 'is not valid JSON');
  }
}

/** The spec sends Content as a JSON string; an object already parsed is taken too. */
function contentObject(value: unknown): JsonObject {
  if (isAbsent(value)) throw missing('Content');
  const parsed = typeof value === 'string' ? parseJson(value) : value;
  if (!isPlainObject(parsed)) throw invalid('Content', 'must be a JSON object');
  return parsed;
}

/**
 * Clients porting from the WhatsApp Cloud API may send its object as is, {"type": "image",
 * "image": {...}}; no content object has a field named after its own type, so this is unambiguous.
 */
function unwrap(type: BusinessMessageType, content: JsonObject): { obj: JsonObject; base: string } {
  const inner = content[type];
  if (!isPlainObject(inner)) return { obj: content, base: 'Content' };
  refuseUnknownFields(content, ['type', type], 'Content', `beside Content.${type}`);
  const declared = content.type;
  if (!isAbsent(declared) && (typeof declared !== 'string' || declared.toLowerCase() !== type)) {
    throw invalid('Content.type', `must match Type (${type})`);
  }
  return { obj: inner, base: `Content.${type}` };
}

/** Validates Type and Content (a JSON string, or an already-parsed object) and returns the normalised content; throws WirebirdError naming the field. */
export function parseBusinessContent(type: unknown, content: unknown): BusinessContent {
  return parseBusinessContentAt(type, content).content;
}

/**
 * parseBusinessContent, also answering where the content object sat in the client's Content
 * ("Content", or "Content.image" when sent wrapped), so later checks name fields as it wrote them.
 */
export function parseBusinessContentAt(
  type: unknown,
  content: unknown,
): { content: BusinessContent; base: string } {
  const kind = parseType(type);
  const { obj, base } = unwrap(kind, contentObject(content));
  return { content: parseObject(kind, obj, base), base };
}

function parseObject(kind: BusinessMessageType, obj: JsonObject, base: string): BusinessContent {
  switch (kind) {
    case 'text':
      return { type: kind, text: parseTextContent(obj, base) };
    case 'location':
      return { type: kind, location: parseLocationContent(obj, base) };
    case 'template':
      return { type: kind, template: parseTemplateContent(obj, base) };
    case 'image':
      return { type: kind, image: parseMedia(kind, obj, base) };
    case 'video':
      return { type: kind, video: parseMedia(kind, obj, base) };
    case 'audio':
      return { type: kind, audio: parseMedia(kind, obj, base) };
    case 'document':
      return { type: kind, document: parseMedia(kind, obj, base) };
    case 'sticker':
      return { type: kind, sticker: parseMedia(kind, obj, base) };
  }
}
