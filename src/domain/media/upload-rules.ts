/** Whether an uploaded file is one WhatsApp will take, refusals naming the field at fault. */
import { WirebirdError, invalid } from '../errors.js';
import type { MediaKind } from './media-kinds.js';
import {
  ALL_MIME_TYPES,
  MEDIA_KINDS,
  MEDIA_MAX_BYTES,
  STATIC_STICKER_MAX_BYTES,
  formatBytes,
  kindOfMimeType,
} from './media-kinds.js';

export interface UploadCandidate {
  /** Normalised (see normaliseMimeType). */
  mimeType: string;
  /** Where the MIME type came from: the `type` field, or the file part's own Content-Type. */
  mimeField: 'type' | 'file';
  size: number;
  /** The file's first bytes (HEAD_BYTES): what tells an animated WebP, or a binary file. */
  head: Uint8Array;
}

export const HEAD_BYTES = 512;

const ARTICLE: Record<MediaKind, string> = {
  image: 'an image',
  video: 'a video',
  audio: 'an audio file',
  document: 'a document',
  sticker: 'an animated sticker',
};

/** The most bytes worth reading of a file whose MIME type is (or is not yet) known. */
export function readLimitOf(mimeType: string | undefined): number {
  const kind = mimeType === undefined ? undefined : kindOfMimeType(mimeType);
  return kind ? MEDIA_KINDS[kind].maxBytes : MEDIA_MAX_BYTES;
}

/** The refusal of a file over its limit; `size` is left out when reading stopped at the limit. */
export function fileTooLarge(mimeType: string | undefined, size?: number): WirebirdError {
  const kind = mimeType === undefined ? undefined : kindOfMimeType(mimeType);
  const got = size === undefined ? '' : ` (got ${size} bytes)`;
  const limit = kind
    ? `${formatBytes(MEDIA_KINDS[kind].maxBytes)} for ${ARTICLE[kind]}`
    : `${formatBytes(MEDIA_MAX_BYTES)}, the most WhatsApp takes of any file`;
  return new WirebirdError('LimitExceeded', `file must be at most ${limit}${got}`);
}

function unsupportedType(mimeType: string, field: 'type' | 'file'): WirebirdError {
  const shown = JSON.stringify(mimeType.slice(0, 100));
  const allowed = `WhatsApp takes ${ALL_MIME_TYPES.join(', ')}`;
  if (field === 'type') return invalid('type', `${shown} is not a type WhatsApp takes; ${allowed}`);
  return invalid(
    'file',
    `has Content-Type ${shown}, not a type WhatsApp takes; ${allowed} (or name the type in a type field)`,
  );
}

const ascii = (bytes: Uint8Array, from: number, to: number): string =>
  String.fromCharCode(...bytes.subarray(from, to));

/** An extended WebP (VP8X chunk) whose header sets the animation flag. */
export function isAnimatedWebp(head: Uint8Array): boolean {
  if (head.length < 21) return false;
  const webp = ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP';
  return webp && ascii(head, 12, 16) === 'VP8X' && ((head[20] ?? 0) & 0x02) !== 0;
}

/** The kind of media the file is; throws WirebirdError naming `file` or `type` otherwise. */
export function checkUpload(c: UploadCandidate): MediaKind {
  if (c.size === 0) throw invalid('file', 'must not be empty');
  const kind = kindOfMimeType(c.mimeType);
  if (!kind) throw unsupportedType(c.mimeType, c.mimeField);
  if (c.size > MEDIA_KINDS[kind].maxBytes) throw fileTooLarge(c.mimeType, c.size);
  // Multipart gives a part without a Content-Type text/plain: a photo sent so would otherwise be
  // taken as a text document, and Meta would show it as one.
  if (c.mimeType === 'text/plain' && c.head.includes(0)) {
    throw invalid(c.mimeField, 'says text/plain but the file is not text; name its type');
  }
  if (kind === 'sticker' && c.size > STATIC_STICKER_MAX_BYTES && !isAnimatedWebp(c.head)) {
    throw new WirebirdError(
      'LimitExceeded',
      `file must be at most ${formatBytes(STATIC_STICKER_MAX_BYTES)} for a static sticker (got ${c.size} bytes); only an animated WebP may be up to ${formatBytes(MEDIA_KINDS.sticker.maxBytes)}`,
    );
  }
  return kind;
}
