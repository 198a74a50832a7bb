/** Rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { MediaFile, MediaInfo, MediaUpload } from '../../domain/media/media-file.js';

export interface MediaRow {
  media_id: string;
  account_id: number;
  mime_type: string;
  file_name: string;
  size: number;
  sha256: string;
  created_at: number;
  bytes?: Uint8Array;
}

export interface MediaUploadRow {
  media_id: string;
  phone_number_id: string;
  whatsapp_media_id: string;
  uploaded_at: number;
}

export const MEDIA_INFO_COLUMNS =
  'media_id, account_id, mime_type, file_name, size, sha256, created_at';
export const MEDIA_FILE_COLUMNS = `${MEDIA_INFO_COLUMNS}, bytes`;
export const MEDIA_UPLOAD_COLUMNS = 'media_id, phone_number_id, whatsapp_media_id, uploaded_at';

/** The values of MEDIA_FILE_COLUMNS, in order. */
export function mediaFileArgs(f: MediaFile): unknown[] {
  return [f.mediaId, f.accountId, f.mimeType, f.fileName, f.size, f.sha256, f.createdAt, f.bytes];
}

export function toMediaInfo(r: MediaRow): MediaInfo {
  return {
    mediaId: r.media_id,
    accountId: r.account_id,
    mimeType: r.mime_type,
    fileName: r.file_name,
    size: r.size,
    sha256: r.sha256,
    createdAt: r.created_at,
  };
}

export function toMediaFile(r: MediaRow & { bytes: Uint8Array }): MediaFile {
  return { ...toMediaInfo(r), bytes: r.bytes };
}

export function mediaUploadArgs(u: MediaUpload): unknown[] {
  return [u.mediaId, u.phoneNumberId, u.whatsAppMediaId, u.uploadedAt];
}

export function toMediaUpload(r: MediaUploadRow): MediaUpload {
  return {
    mediaId: r.media_id,
    phoneNumberId: r.phone_number_id,
    whatsAppMediaId: r.whatsapp_media_id,
    uploadedAt: r.uploaded_at,
  };
}

/** The upload of an account's file: joined with media so another account's never answers. */
export const SELECT_UPLOAD = `SELECT u.media_id, u.phone_number_id, u.whatsapp_media_id, u.uploaded_at
  FROM media_uploads u JOIN media m ON m.media_id = u.media_id`;

export const UPSERT_UPLOAD_TAIL = `ON CONFLICT (media_id, phone_number_id) DO UPDATE SET
  whatsapp_media_id = excluded.whatsapp_media_id, uploaded_at = excluded.uploaded_at`;
