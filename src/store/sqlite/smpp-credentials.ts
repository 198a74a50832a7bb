import type { SmppCredentialStore } from '../../domain/ports.js';
import {
  SMPP_CREDENTIAL_COLUMNS,
  UPSERT_SMPP_TAIL,
  smppCredentialArgs,
  toSmppCredential,
  type SmppCredentialRow,
} from '../rows/smpp-credentials.js';
import type { Db } from './database.js';

export function sqliteSmppCredentials(db: Db): SmppCredentialStore {
  const save = db.prepare(
    `INSERT INTO smpp_credentials (${SMPP_CREDENTIAL_COLUMNS}) VALUES (?,?,?,?,?,?,?,?)
     ${UPSERT_SMPP_TAIL}`,
  );
  const one = db.prepare(
    `SELECT ${SMPP_CREDENTIAL_COLUMNS} FROM smpp_credentials WHERE system_id = ?`,
  );
  const all = db.prepare(
    `SELECT ${SMPP_CREDENTIAL_COLUMNS} FROM smpp_credentials ORDER BY account_id, system_id`,
  );
  const ofAccount = db.prepare(
    `SELECT ${SMPP_CREDENTIAL_COLUMNS} FROM smpp_credentials WHERE account_id = ? ORDER BY system_id`,
  );
  const remove = db.prepare('DELETE FROM smpp_credentials WHERE account_id = ? AND system_id = ?');
  return {
    async saveSmppCredential(c) {
      return save.run(...smppCredentialArgs(c)).changes > 0 ? 'saved' : 'taken';
    },
    async getSmppCredential(systemId) {
      const row = one.get(systemId) as SmppCredentialRow | undefined;
      return row && toSmppCredential(row);
    },
    async listSmppCredentials(accountId) {
      const rows = accountId === undefined ? all.all() : ofAccount.all(accountId);
      return (rows as SmppCredentialRow[]).map(toSmppCredential);
    },
    async deleteSmppCredential(accountId, systemId) {
      return remove.run(accountId, systemId).changes > 0;
    },
  };
}
