import type { UcloudKey } from '../../domain/accounts/ucloud-key.js';
import { credentialHash, type KeyRecord } from '../../domain/keys/key-record.js';
import type { UcloudKeyStore } from '../../domain/ports.js';
import { apiKeyArgs, insertKeyRecordSql } from '../rows/api-keys.js';
import { UCLOUD_KEY_COLUMNS, toUcloudKey, type UcloudKeyRow } from '../rows/ucloud-keys.js';
import type { Db } from './database.js';

export function sqliteUcloudKeys(db: Db): UcloudKeyStore {
  const insert = db.prepare(`INSERT INTO ucloud_keys (${UCLOUD_KEY_COLUMNS}) VALUES (?, ?, ?, ?)`);
  const byPublic = db.prepare<unknown[], UcloudKeyRow>(
    `SELECT ${UCLOUD_KEY_COLUMNS} FROM ucloud_keys WHERE public_key = ?`,
  );
  const byAccount = db.prepare<unknown[], UcloudKeyRow>(
    `SELECT ${UCLOUD_KEY_COLUMNS} FROM ucloud_keys WHERE account_id = ? ORDER BY created_at, public_key`,
  );
  const remove = db.prepare('DELETE FROM ucloud_keys WHERE account_id = ? AND public_key = ?');
  const addRecord = db.prepare(insertKeyRecordSql(() => '?'));
  const removeRecord = db.prepare('DELETE FROM api_keys WHERE account_id = ? AND key_hash = ?');
  const addBoth = db.transaction((k: UcloudKey, record: KeyRecord) => {
    insert.run(k.publicKey, k.accountId, k.sealedPrivateKey, k.createdAt);
    addRecord.run(...apiKeyArgs(record));
  });
  const removeBoth = db.transaction((accountId: number, publicKey: string) => {
    removeRecord.run(accountId, credentialHash('ucloud', publicKey));
    return remove.run(accountId, publicKey).changes > 0;
  });
  return {
    async addUcloudKey(k, record) {
      addBoth(k, record);
    },
    async getUcloudKey(publicKey) {
      const row = byPublic.get(publicKey);
      return row && toUcloudKey(row);
    },
    async listUcloudKeys(accountId) {
      return byAccount.all(accountId).map(toUcloudKey);
    },
    async deleteUcloudKey(accountId, publicKey) {
      return removeBoth(accountId, publicKey);
    },
  };
}
