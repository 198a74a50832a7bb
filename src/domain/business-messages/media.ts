/** Media objects (image, video, audio, document, sticker), as the WhatsApp Cloud API takes them. */
import { invalid, missing } from '../errors.js';
import {
  isAbsent,
  optionalString,
  refuseUnknownFields,
  requiredObject,
  requiredString,
} from './fields.js';
import type { JsonObject } from './fields.js';

/** Exactly one of the two: an uploaded media ID or a public URL the channel fetches. */
export interface MediaRef {
  id?: string;
  link?: string;
}
export type CaptionedMedia = MediaRef & { caption?: string };
export type DocumentMedia = MediaRef & { caption?: string; filename?: string };

export interface MediaByKind {
  image: CaptionedMedia;
  video: CaptionedMedia;
  audio: MediaRef;
  sticker: MediaRef;
  document: DocumentMedia;
}
export type MediaKind = keyof MediaByKind;

const FIELDS: Record<MediaKind, readonly string[]> = {
  image: ['id', 'link', 'caption'],
  video: ['id', 'link', 'caption'],
  audio: ['id', 'link'],
  sticker: ['id', 'link'],
  document: ['id', 'link', 'caption', 'filename'],
};

export const MEDIA_ID_MAX = 256;
export const CAPTION_MAX = 1024;
export const FILENAME_MAX = 240;
/** Not a WhatsApp figure: a bound on what we store, above the length of signed storage URLs. */
export const LINK_MAX = 8192;

// The scheme must be spelt out: the URL parser would otherwise read "http:host" or
// "http:///host" as http://host/ and we would send a link the client never wrote.
const HTTP_URL = /^https?:\/\/[^\s/?#]\S*$/i;

function hasHost(link: string): boolean {
  try {
    return new URL(link).hostname !== '';
  } catch {
    return false;
  }
}

function mediaSource(obj: JsonObject, base: string): MediaRef {
  const hasId = !isAbsent(obj.id);
  const hasLink = !isAbsent(obj.link);
  if (!hasId && !hasLink) throw missing(`${base}.id or ${base}.link`);
  if (hasId && hasLink) throw invalid(`${base}.link`, `must not be sent together with ${base}.id`);
  if (hasId) return { id: requiredString(obj, 'id', base, MEDIA_ID_MAX) };
  const link = requiredString(obj, 'link', base, LINK_MAX);
  if (!HTTP_URL.test(link) || !hasHost(link)) {
    throw invalid(`${base}.link`, 'must be an absolute http:// or https:// URL');
  }
  return { link };
}

/**
 * Validates a media object of the given kind and returns it rebuilt from the known fields only
 * (id or link first, then caption and filename); absent optional fields are dropped.
 */
export function parseMedia<K extends MediaKind>(
  kind: K,
  value: unknown,
  base: string,
): MediaByKind[K] {
  const obj = requiredObject(value, base);
  refuseUnknownFields(obj, FIELDS[kind], base, `for ${kind}`);
  const media: DocumentMedia = mediaSource(obj, base);
  if (FIELDS[kind].includes('caption')) {
    const caption = optionalString(obj, 'caption', base, CAPTION_MAX);
    if (caption !== undefined) media.caption = caption;
  }
  if (kind === 'document') {
    const filename = optionalString(obj, 'filename', base, FILENAME_MAX);
    if (filename !== undefined) media.filename = filename;
  }
  return media;
}
