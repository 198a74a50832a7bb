/**
 * Files uploaded through POST /media. The bytes live in the store, so every node of a cluster
 * sees them and a backup holds them; a file is only ever read by (account id, media id).
 */

/** What is known of a file without its bytes: enough to check a SendMessage that names it. */
export interface MediaInfo {
  mediaId: string;
  accountId: number;
  /** Lowercase, without parameters: "image/png", never "Image/PNG; x=y". */
  mimeType: string;
  fileName: string;
  size: number;
  /** Hex SHA-256 of the bytes. */
  sha256: string;
  createdAt: number;
}

export interface MediaFile extends MediaInfo {
  bytes: Uint8Array;
}

/** The WhatsApp media id one phone number id got when the file was uploaded to it. */
export interface MediaUpload {
  mediaId: string;
  phoneNumberId: string;
  whatsAppMediaId: string;
  uploadedAt: number;
}

/**
 * Wirebird's media ids start with this prefix; WhatsApp's are numeric, so a content object's id
 * tells by its form which of the two it is, and an id the client got from Meta passes through.
 */
export const MEDIA_ID_PREFIX = 'wbm_';

export function isWirebirdMediaId(id: string): boolean {
  return id.startsWith(MEDIA_ID_PREFIX);
}
