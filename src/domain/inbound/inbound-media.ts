/**
 * The file a WhatsApp message carries (image, video, audio, document, sticker). Meta sends only
 * an id; the gateway fetches the file through the Graph API into its own media store, so the
 * application is handed a URL on the gateway that lasts, not Meta's link that expires in
 * minutes (docs/inbound.md, "Media").
 */
import type { MediaFile } from '../media/media-file.js';

/** WhatsApp message types whose content is a file Meta holds under a media id. */
export const MEDIA_MESSAGE_TYPES: readonly string[] = [
  'image',
  'video',
  'audio',
  'document',
  'sticker',
];

/** pending: waiting to be fetched; stored: in the media store; failed: given up, with why. */
export type InboundMediaState = 'pending' | 'stored' | 'failed';

/** A file as a message names it: Meta's media id, and the name a document was sent with. */
export interface MediaRef {
  ref: string;
  fileName?: string;
}

export interface InboundMedia extends MediaRef {
  state: InboundMediaState;
  /** Once stored: the gateway's media id, its URL, and what the file is. */
  mediaId?: string;
  url?: string;
  mimeType?: string;
  size?: number;
  sha256?: string;
  /** Once failed: why. */
  error?: string;
}

/**
 * Waits before each further attempt at a fetch that failed in a way worth retrying (Graph down,
 * throttled, a cut-off download): about seven hours in all, then the message is marked failed.
 */
export const MEDIA_FETCH_WAITS_MS: readonly number[] = [
  5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000,
];

/** When to try again after `attempts` attempts failed, or undefined when it is time to give up. */
export function nextFetchAt(attempts: number, now: number): number | undefined {
  const wait = MEDIA_FETCH_WAITS_MS[attempts - 1];
  return wait === undefined ? undefined : now + wait;
}

/** A message whose file is due to be fetched, as the store hands it out under a lease. */
export interface PendingMedia extends MediaRef {
  inboundId: string;
  accountId: number;
  /** The business phone it was sent to: whose Cloud API credentials fetch the file. */
  to: string;
  /** Attempts so far, this one included. */
  attempts: number;
}

/** How a fetch ended for good: the file to store (and where it is served), or why not. */
export type SettledMedia =
  { state: 'stored'; file: MediaFile; url: string } | { state: 'failed'; error: string };

/** What the message's media says once settled: the file's facts without its bytes. */
export function settledMedia(pending: InboundMedia, outcome: SettledMedia): InboundMedia {
  const { ref } = pending;
  if (outcome.state === 'failed') {
    return { ...pending, state: 'failed', error: outcome.error };
  }
  const { file, url } = outcome;
  return {
    state: 'stored',
    ref,
    mediaId: file.mediaId,
    url,
    mimeType: file.mimeType,
    fileName: file.fileName,
    size: file.size,
    sha256: file.sha256,
  };
}

/** Why the file of a message to a number no account registered is not fetched. */
export const UNROUTED_MEDIA =
  'not fetched: no account has registered the number it was sent to (unrouted)';

/** The media an arrival starts with: pending when an account owns it, else never fetched. */
export function arrivedMedia(ref: MediaRef | undefined, routed: boolean): InboundMedia | undefined {
  if (ref === undefined) return undefined;
  return routed ? { ...ref, state: 'pending' } : { ...ref, state: 'failed', error: UNROUTED_MEDIA };
}
