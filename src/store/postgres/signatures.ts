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
import type { Pool } from './database.js';

const VALUES = COLUMNS.split(',')
  .map((_, i) => `$${i + 1}`)
  .join(',');
const SET = SIGNATURE_UPDATABLE.map((c, i) => `${c} = $${i + 1}`).join(', ');
const AFTER_SET = SIGNATURE_UPDATABLE.length;

export function postgresSignatures(pool: Pool): SignatureStore {
  const select = async (where: string, args: unknown[], order = 'created_at, sig_id') => {
    const r = await pool.query<SignatureRow>(
      `SELECT ${COLUMNS} FROM signatures ${where} ORDER BY ${order}`,
      args,
    );
    return r.rows.map(signatureFromRow);
  };
  return {
    deleteSignatures: ownedDeleter(pool, 'signatures', 'sig_id'),
    async insertSignature(s) {
      await pool.query(`INSERT INTO signatures (${COLUMNS}) VALUES (${VALUES})`, signatureToRow(s));
    },
    async getSignatures(accountId, sigIds) {
      if (sigIds.length === 0) return [];
      return select('WHERE account_id = $1 AND sig_id = ANY($2::text[])', [accountId, sigIds]);
    },
    async getSignatureById(sigId) {
      return (await select('WHERE sig_id = $1', [sigId]))[0];
    },
    async signaturesByContent(accountId, sigContent) {
      return select(
        'WHERE account_id = $1 AND sig_content = $2',
        [accountId, sigContent],
        'created_at DESC, sig_id',
      );
    },
    async replaceSignature(s) {
      const r = await pool.query(
        `UPDATE signatures SET ${SET}, version = version + 1
         WHERE sig_id = $${AFTER_SET + 1} AND version = $${AFTER_SET + 2}`,
        signatureReplaceArgs(s),
      );
      return r.rowCount === 1 ? { ...s, version: s.version + 1 } : undefined;
    },

    async listSignatures(filter) {
      const { where, args } = reviewedWhere(filter, (n) => `$${n}`);
      return select(where, args);
    },
  };
}
