/** One variable of a template component: a text, a quick-reply payload or a header media. */
import { invalid, missing } from '../errors.js';
import {
  isAbsent,
  isOneOf,
  mustBeOneOf,
  refuseUnknownFields,
  requiredObject,
  requiredString,
} from './fields.js';
import { parseMedia } from './media.js';
import type { CaptionedMedia, DocumentMedia } from './media.js';

export type TemplateParameter =
  | { type: 'text'; text: string }
  | { type: 'payload'; payload: string }
  | { type: 'image'; image: CaptionedMedia }
  | { type: 'video'; video: CaptionedMedia }
  | { type: 'document'; document: DocumentMedia };
export type TemplateParameterType = TemplateParameter['type'];

/** What the component holding the parameters lets them be. */
export interface ParameterRule {
  /** Names the holder in messages, e.g. "header components". */
  owner: string;
  types: readonly TemplateParameterType[];
  /** The most parameters the holder has variables for. */
  maxCount: number;
  /** The longest text (or payload) one parameter may carry. */
  textMax: number;
}

export function parseTemplateParameter(
  value: unknown,
  base: string,
  rule: ParameterRule,
): TemplateParameter {
  const obj = requiredObject(value, base);
  const type = obj.type;
  if (isAbsent(type)) throw missing(`${base}.type`);
  if (!isOneOf(type, rule.types)) {
    throw invalid(`${base}.type`, `${mustBeOneOf(rule.types)} for ${rule.owner}`);
  }
  refuseUnknownFields(obj, ['type', type], base, `for ${type} parameters`);
  switch (type) {
    case 'text':
      return { type, text: requiredString(obj, 'text', base, rule.textMax) };
    case 'payload':
      return { type, payload: requiredString(obj, 'payload', base, rule.textMax) };
    case 'image':
      return { type, image: parseMedia(type, obj.image, `${base}.image`) };
    case 'video':
      return { type, video: parseMedia(type, obj.video, `${base}.video`) };
    case 'document':
      return { type, document: parseMedia(type, obj.document, `${base}.document`) };
  }
}
