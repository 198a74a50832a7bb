import { credentialHash, type KeyRecord } from '../../domain/keys/key-record.js';
import type { SmppCredentialStore } from '../../domain/ports.js';
import type { SmppCredential } from '../../domain/smpp-server/credential.js';
import {
  SMPP_CREDENTIAL_COLUMNS,
  UPSERT_SMPP_TAIL,
  smppCredentialArgs,
  toSmppCredential,
  type SmppCredentialRow,
} from '../rows/smpp-credentials.js';
import { apiKeyArgs, insertKeyRecordSql } from '../rows/api-keys.js';
import type { Db } from './database.js';

export function sqliteSmppCredentials(db: Db): SmppCredentialStore {
  const save = db.prepare(
    `INSERT INTO smpp_credentials (${SMPP_CREDENTIAL_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)
     ${UPSERT_SMPP_TAIL}`,
  );
  const one = db.prepare<unknown[], SmppCredentialRow>(
    `SELECT ${SMPP_CREDENTIAL_COLUMNS} FROM smpp_credentials WHERE system_id = ?`,
  );
  const all = db.prepare<unknown[], SmppCredentialRow>(
    `SELECT ${SMPP_CREDENTIAL_COLUMNS} FROM smpp_credentials ORDER BY account_id, system_id`,
  );
  const ofAccount = db.prepare<unknown[], SmppCredentialRow>(
    `SELECT ${SMPP_CREDENTIAL_COLUMNS} FROM smpp_credentials WHERE account_id = ? ORDER BY system_id`,
  );
  const remove = db.prepare('DELETE FROM smpp_credentials WHERE account_id = ? AND system_id = ?');
  const addRecord = db.prepare(insertKeyRecordSql(() => '?'));
  const removeRecord = db.prepare('DELETE FROM api_keys WHERE account_id = ? AND key_hash = ?');
  const saveBoth = db.transaction((c: SmppCredential, record: KeyRecord) => {
    if (save.run(...smppCredentialArgs(c)).changes === 0) return 'taken' as const;
    addRecord.run(...apiKeyArgs(record));
    return 'saved' as const;
  });
  const removeBoth = db.transaction((accountId: number, systemId: string) => {
    removeRecord.run(accountId, credentialHash('smpp', systemId));
    return remove.run(accountId, systemId).changes > 0;
  });
  return {
    async saveSmppCredential(c, record) {
      return saveBoth(c, record);
    },
    async getSmppCredential(systemId) {
      const row = one.get(systemId);
      return row && toSmppCredential(row);
    },
    async listSmppCredentials(accountId) {
      const rows = accountId === undefined ? all.all() : ofAccount.all(accountId);
      return rows.map(toSmppCredential);
    },
    async deleteSmppCredential(accountId, systemId) {
      return removeBoth(accountId, systemId);
    },
  };
}
