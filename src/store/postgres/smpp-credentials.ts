import type { SmppCredentialStore } from '../../domain/ports.js';
import { apiKeyArgs, insertKeyRecordSql } from '../rows/api-keys.js';
import { deleteWithRecord } from './api-keys.js';
import {
  SMPP_CREDENTIAL_COLUMNS,
  UPSERT_SMPP_TAIL,
  smppCredentialArgs,
  toSmppCredential,
  type SmppCredentialRow,
} from '../rows/smpp-credentials.js';
import { inTransaction, type Pool } from './database.js';

export function postgresSmppCredentials(pool: Pool): SmppCredentialStore {
  const select = `SELECT ${SMPP_CREDENTIAL_COLUMNS} FROM smpp_credentials`;
  return {
    async saveSmppCredential(c, record) {
      return inTransaction(pool, async (client) => {
        const r = await client.query(
          `INSERT INTO smpp_credentials (${SMPP_CREDENTIAL_COLUMNS})
           VALUES ($1,$2,$3,$4,$5,$6,$7,$8) ${UPSERT_SMPP_TAIL}`,
          smppCredentialArgs(c),
        );
        if (r.rowCount !== 1) return 'taken';
        await client.query(
          insertKeyRecordSql((n) => `$${n}`),
          apiKeyArgs(record),
        );
        return 'saved';
      });
    },
    async getSmppCredential(systemId) {
      const r = await pool.query<SmppCredentialRow>(`${select} WHERE system_id = $1`, [systemId]);
      return r.rows[0] && toSmppCredential(r.rows[0]);
    },
    async listSmppCredentials(accountId) {
      const r =
        accountId === undefined
          ? await pool.query<SmppCredentialRow>(`${select} ORDER BY account_id, system_id`)
          : await pool.query<SmppCredentialRow>(
              `${select} WHERE account_id = $1 ORDER BY system_id`,
              [accountId],
            );
      return r.rows.map(toSmppCredential);
    },
    async deleteSmppCredential(accountId, systemId) {
      return deleteWithRecord(pool, 'smpp', { accountId, name: systemId });
    },
  };
}
