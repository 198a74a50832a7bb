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
import type { Db } from './database.js';

export function sqliteMedia(db: Db): MediaStore {
  const insert = db.prepare(`INSERT INTO media (${MEDIA_FILE_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)`);
  const where = 'WHERE account_id = ? AND media_id = ?';
  const info = db.prepare<unknown[], MediaRow>(`SELECT ${MEDIA_INFO_COLUMNS} FROM media ${where}`);
  const file = db.prepare<unknown[], MediaRow & { bytes: Buffer }>(
    `SELECT ${MEDIA_FILE_COLUMNS} FROM media ${where}`,
  );
  const upload = db.prepare<unknown[], MediaUploadRow>(
    `${SELECT_UPLOAD} WHERE m.account_id = ? AND u.media_id = ? AND u.phone_number_id = ?`,
  );
  const saveUpload = db.prepare(
    `INSERT INTO media_uploads (${MEDIA_UPLOAD_COLUMNS}) VALUES (?,?,?,?) ${UPSERT_UPLOAD_TAIL}`,
  );

  return {
    async insertMedia(f) {
      insert.run(...mediaFileArgs(f));
    },
    async getMediaInfo(accountId, mediaId) {
      const row = info.get(accountId, mediaId);
      return row && toMediaInfo(row);
    },
    async getMediaFile(accountId, mediaId) {
      const row = file.get(accountId, mediaId);
      return row && toMediaFile(row);
    },
    async getMediaUpload(accountId, mediaId, phoneNumberId) {
      const row = upload.get(accountId, mediaId, phoneNumberId);
      return row && toMediaUpload(row);
    },
    async saveMediaUpload(u) {
      saveUpload.run(...mediaUploadArgs(u));
    },
  };
}
