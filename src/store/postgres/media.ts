import type { MediaStore } from '../../domain/ports.js';
import {
  MEDIA_FILE_COLUMNS,
  MEDIA_INFO_COLUMNS,
  MEDIA_UPLOAD_COLUMNS,
  SELECT_UPLOAD,
  UPSERT_UPLOAD_TAIL,
  mediaFileArgs,
  mediaUploadArgs,
  toMediaFile,
  toMediaInfo,
  toMediaUpload,
  type MediaRow,
  type MediaUploadRow,
} from '../rows/media.js';
import type { Pool } from './database.js';

const WHERE = 'WHERE account_id = $1 AND media_id = $2';

export function postgresMedia(pool: Pool): MediaStore {
  return {
    async insertMedia(f) {
      await pool.query(
        `INSERT INTO media (${MEDIA_FILE_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
        mediaFileArgs(f),
      );
    },
    async getMediaInfo(accountId, mediaId) {
      const r = await pool.query<MediaRow>(`SELECT ${MEDIA_INFO_COLUMNS} FROM media ${WHERE}`, [
        accountId,
        mediaId,
      ]);
      const row = r.rows[0];
      return row && toMediaInfo(row);
    },
    async getMediaFile(accountId, mediaId) {
      const r = await pool.query<MediaRow & { bytes: Buffer }>(
        `SELECT ${MEDIA_FILE_COLUMNS} FROM media ${WHERE}`,
        [accountId, mediaId],
      );
      const row = r.rows[0];
      return row && toMediaFile(row);
    },
    async getMediaUpload(accountId, mediaId, phoneNumberId) {
      const r = await pool.query<MediaUploadRow>(
        `${SELECT_UPLOAD} WHERE m.account_id = $1 AND u.media_id = $2 AND u.phone_number_id = $3`,
        [accountId, mediaId, phoneNumberId],
      );
      const row = r.rows[0];
      return row && toMediaUpload(row);
    },
    async saveMediaUpload(u) {
      await pool.query(
        `INSERT INTO media_uploads (${MEDIA_UPLOAD_COLUMNS}) VALUES ($1, $2, $3, $4) ${UPSERT_UPLOAD_TAIL}`,
        mediaUploadArgs(u),
      );
    },
  };
}
