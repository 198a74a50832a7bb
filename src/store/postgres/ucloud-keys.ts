import type { UcloudKeyStore } from '../../domain/ports.js';
import { UCLOUD_KEY_COLUMNS, toUcloudKey, type UcloudKeyRow } from '../rows/ucloud-keys.js';
import type { Pool } from './database.js';

export function postgresUcloudKeys(pool: Pool): UcloudKeyStore {
  return {
    async addUcloudKey(k) {
      await pool.query(`INSERT INTO ucloud_keys (${UCLOUD_KEY_COLUMNS}) VALUES ($1, $2, $3, $4)`, [
        k.publicKey,
        k.accountId,
        k.sealedPrivateKey,
        k.createdAt,
      ]);
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
      const r = await pool.query(
        'DELETE FROM ucloud_keys WHERE account_id = $1 AND public_key = $2',
        [accountId, publicKey],
      );
      return r.rowCount === 1;
    },
  };
}
