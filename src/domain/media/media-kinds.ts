/**
 * Which files WhatsApp takes for each kind of media, and how large (protocol-facts A2). A file
 * refused here would otherwise be accepted by us and refused by Meta only when a message is sent.
 */
import type { MediaKind } from '../business-messages/media.js';

export type { MediaKind } from '../business-messages/media.js';

// Meta writes "5 MB"; decimal megabytes are the stricter reading, so whatever we take Meta takes.
const KB = 1000;
const MB = 1000 * KB;

export interface KindRule {
  mimeTypes: readonly string[];
  maxBytes: number;
}

export const MEDIA_KINDS: Readonly<Record<MediaKind, KindRule>> = {
  image: { mimeTypes: ['image/jpeg', 'image/png'], maxBytes: 5 * MB },
  video: { mimeTypes: ['video/mp4', 'video/3gpp'], maxBytes: 16 * MB },
  audio: {
    mimeTypes: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'],
    maxBytes: 16 * MB,
  },
  document: {
    mimeTypes: [
      'text/plain',
      'application/pdf',
      'application/msword',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      'application/vnd.ms-excel',
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      'application/vnd.ms-powerpoint',
      'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    ],
    maxBytes: 100 * MB,
  },
  // An animated sticker may be 500 KB, a static one 100 KB (see stickerLimit).
  sticker: { mimeTypes: ['image/webp'], maxBytes: 500 * KB },
};

export const STATIC_STICKER_MAX_BYTES = 100 * KB;

/** The largest file any kind allows: what an upload is read up to before its kind is known. */
export const MEDIA_MAX_BYTES = Math.max(...Object.values(MEDIA_KINDS).map((k) => k.maxBytes));

export const ALL_MIME_TYPES: readonly string[] = Object.values(MEDIA_KINDS).flatMap(
  (k) => k.mimeTypes,
);

/** "Image/PNG; charset=x" → "image/png": parameters say nothing about which kind a file is. */
export function normaliseMimeType(raw: string): string {
  return (raw.split(';')[0] ?? '').trim().toLowerCase();
}

export function kindOfMimeType(mimeType: string): MediaKind | undefined {
  // Object.keys widens a const object's keys to string; these are MEDIA_KINDS's own.
  const kinds = Object.keys(MEDIA_KINDS) as MediaKind[];
  return kinds.find((kind) => MEDIA_KINDS[kind].mimeTypes.includes(mimeType));
}

/** "5 MB", "500 KB", "1.2 MB": sizes in the units the limits are written in. */
export function formatBytes(bytes: number): string {
  if (bytes >= MB) return `${Number((bytes / MB).toFixed(1))} MB`;
  if (bytes >= KB) return `${Number((bytes / KB).toFixed(1))} KB`;
  return `${bytes} bytes`;
}
