import type { UcloudKeyStore } from '../../domain/ports.js';
import { apiKeyArgs, insertKeyRecordSql } from '../rows/api-keys.js';
import { deleteWithRecord } from './api-keys.js';
import { UCLOUD_KEY_COLUMNS, toUcloudKey, type UcloudKeyRow } from '../rows/ucloud-keys.js';
import { inTransaction, type Pool } from './database.js';

export function postgresUcloudKeys(pool: Pool): UcloudKeyStore {
  return {
    async addUcloudKey(k, record) {
      await inTransaction(pool, async (client) => {
        await client.query(
          `INSERT INTO ucloud_keys (${UCLOUD_KEY_COLUMNS}) VALUES ($1, $2, $3, $4)`,
          [k.publicKey, k.accountId, k.sealedPrivateKey, k.createdAt],
        );
        await client.query(
          insertKeyRecordSql((n) => `$${n}`),
          apiKeyArgs(record),
        );
      });
    },
    async getUcloudKey(publicKey) {
      const r = await pool.query<UcloudKeyRow>(
        `SELECT ${UCLOUD_KEY_COLUMNS} FROM ucloud_keys WHERE public_key = $1`,
        [publicKey],
      );
      return r.rows[0] && toUcloudKey(r.rows[0]);
    },
    async listUcloudKeys(accountId) {
      const r = await pool.query<UcloudKeyRow>(
        `SELECT ${UCLOUD_KEY_COLUMNS} FROM ucloud_keys WHERE account_id = $1
         ORDER BY created_at, public_key`,
        [accountId],
      );
      return r.rows.map(toUcloudKey);
    },
    async deleteUcloudKey(accountId, publicKey) {
      return deleteWithRecord(pool, 'ucloud', { accountId, name: publicKey });
    },
  };
}
