import type { SignatureStore } from '../../domain/ports.js';
import {
  SIGNATURE_COLUMNS as COLUMNS,
  SIGNATURE_UPDATABLE,
  signatureFromRow,
  signatureReplaceArgs,
  signatureToRow,
  type SignatureRow,
} from '../rows/signatures.js';
import { reviewedWhere } from '../rows/reviewed.js';
import { ownedDeleter } from './owned-rows.js';
import type { Db } from './database.js';

export function sqliteSignatures(db: Db): SignatureStore {
  const marks = COLUMNS.split(',')
    .map(() => '?')
    .join(',');
  const insert = db.prepare(`INSERT INTO signatures (${COLUMNS}) VALUES (${marks})`);
  const byId = db.prepare<unknown[], SignatureRow>(
    `SELECT ${COLUMNS} FROM signatures WHERE sig_id = ?`,
  );
  const byContent = db.prepare<unknown[], SignatureRow>(
    `SELECT ${COLUMNS} FROM signatures WHERE account_id = ? AND sig_content = ?
     ORDER BY created_at DESC, sig_id`,
  );
  const set = SIGNATURE_UPDATABLE.map((c) => `${c} = ?`).join(', ');
  const replace = db.prepare(
    `UPDATE signatures SET ${set}, version = version + 1 WHERE sig_id = ? AND version = ?`,
  );
  const rows = (list: SignatureRow[]) => list.map(signatureFromRow);

  return {
    deleteSignatures: ownedDeleter(db, 'signatures', 'sig_id'),
    async insertSignature(s) {
      insert.run(...signatureToRow(s));
    },
    async getSignatures(accountId, sigIds) {
      if (sigIds.length === 0) return [];
      const ids = sigIds.map(() => '?').join(',');
      const sql = `SELECT ${COLUMNS} FROM signatures WHERE account_id = ? AND sig_id IN (${ids})`;
      return rows(db.prepare<unknown[], SignatureRow>(sql).all(accountId, ...sigIds));
    },
    async getSignatureById(sigId) {
      const row = byId.get(sigId);
      return row && signatureFromRow(row);
    },
    async signaturesByContent(accountId, sigContent) {
      return rows(byContent.all(accountId, sigContent));
    },
    async replaceSignature(s) {
      const r = replace.run(...signatureReplaceArgs(s));
      return r.changes === 1 ? { ...s, version: s.version + 1 } : undefined;
    },

    async listSignatures(filter) {
      const { where, args } = reviewedWhere(filter, () => '?');
      const sql = `SELECT ${COLUMNS} FROM signatures ${where} ORDER BY created_at, sig_id`;
      return db
        .prepare<unknown[], SignatureRow>(sql)
        .all(...args)
        .map(signatureFromRow);
    },
  };
}
