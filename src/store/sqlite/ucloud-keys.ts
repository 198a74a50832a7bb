import type { UcloudKeyStore } from '../../domain/ports.js';
import { UCLOUD_KEY_COLUMNS, toUcloudKey, type UcloudKeyRow } from '../rows/ucloud-keys.js';
import type { Db } from './database.js';

export function sqliteUcloudKeys(db: Db): UcloudKeyStore {
  const insert = db.prepare(`INSERT INTO ucloud_keys (${UCLOUD_KEY_COLUMNS}) VALUES (?, ?, ?, ?)`);
  const byPublic = db.prepare(`SELECT ${UCLOUD_KEY_COLUMNS} FROM ucloud_keys WHERE public_key = ?`);
  const byAccount = db.prepare(
    `SELECT ${UCLOUD_KEY_COLUMNS} FROM ucloud_keys WHERE account_id = ? ORDER BY created_at, public_key`,
  );
  const remove = db.prepare('DELETE FROM ucloud_keys WHERE account_id = ? AND public_key = ?');
  return {
    async addUcloudKey(k) {
      insert.run(k.publicKey, k.accountId, k.sealedPrivateKey, k.createdAt);
    },
    async getUcloudKey(publicKey) {
      const row = byPublic.get(publicKey) as UcloudKeyRow | undefined;
      return row && toUcloudKey(row);
    },
    async listUcloudKeys(accountId) {
      return (byAccount.all(accountId) as UcloudKeyRow[]).map(toUcloudKey);
    },
    async deleteUcloudKey(accountId, publicKey) {
      return remove.run(accountId, publicKey).changes > 0;
    },
  };
}
