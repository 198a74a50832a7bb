import type { Pool } from 'pg';
import { credentialHash, type KeyKind } from '../../domain/keys/key-record.js';
import type { ApiKeyStore } from '../../domain/ports.js';
import { inTransaction } from './database.js';
import { API_KEY_COLUMNS, apiKeyArgs, toApiKey, type ApiKeyRow } from '../rows/api-keys.js';

export function postgresApiKeys(pool: Pool): ApiKeyStore {
  const select = (where: string, args: unknown[]) =>
    pool.query<ApiKeyRow>(
      `SELECT ${API_KEY_COLUMNS} FROM api_keys ${where} ORDER BY created_at, key_id`,
      args,
    );
  return {
    ...postgresKeyUpkeep(pool),
    async insertApiKey(key) {
      const marks = apiKeyArgs(key).map((_, i) => `$${i + 1}`);
      await pool.query(
        `INSERT INTO api_keys (${API_KEY_COLUMNS}) VALUES (${marks.join(',')})`,
        apiKeyArgs(key),
      );
    },
    async apiKeyByHash(keyHash) {
      const r = await select('WHERE key_hash = $1', [keyHash]);
      return r.rows[0] && toApiKey(r.rows[0]);
    },
    async listApiKeys(accountId) {
      const r =
        accountId === undefined
          ? await select('', [])
          : await select('WHERE account_id = $1', [accountId]);
      return r.rows.map(toApiKey);
    },
    async updateApiKey(accountId, keyId, c) {
      // coalesce: a revoked key stays revoked, with its first time and reason.
      const r = await pool.query<ApiKeyRow>(
        `UPDATE api_keys SET name = coalesce($1, name), expires_at = coalesce($2, expires_at),
           revoked_reason = CASE WHEN revoked_at IS NULL THEN coalesce($3, revoked_reason)
             ELSE revoked_reason END,
           revoked_at = coalesce(revoked_at, $4)
         WHERE account_id = $5 AND key_id = $6 RETURNING ${API_KEY_COLUMNS}`,
        [
          c.name ?? null,
          c.expiresAt ?? null,
          c.revokedReason ?? null,
          c.revokedAt ?? null,
          accountId,
          keyId,
        ],
      );
      return r.rows[0] && toApiKey(r.rows[0]);
    },
  };
}

/** What the gateway does to keys by itself: their last use, and the env keys no longer configured. */
function postgresKeyUpkeep(pool: Pool): Pick<ApiKeyStore, 'touchApiKeys' | 'revokeEnvKeysExcept'> {
  return {
    async touchApiKeys(uses) {
      if (uses.length === 0) return;
      await pool.query(
        `UPDATE api_keys k SET last_used_at = u.at FROM unnest($1::text[], $2::bigint[]) AS u(key_id, at)
         WHERE k.key_id = u.key_id AND coalesce(k.last_used_at, 0) < u.at`,
        [uses.map((u) => u.keyId), uses.map((u) => u.at)],
      );
    },
    async revokeEnvKeysExcept(kind, keep, at, reason) {
      const r = await pool.query<{ key_id: string }>(
        `UPDATE api_keys SET revoked_at = $1, revoked_reason = $2
         WHERE kind = $4 AND source = 'env' AND revoked_at IS NULL
           AND NOT (key_hash = ANY($3::text[]))
         RETURNING key_id`,
        [at, reason, keep, kind],
      );
      return r.rows.map((row) => row.key_id);
    },
  };
}

/** Where each credential kind keeps its secret, named by the column its record's hash names. */
const CREDENTIAL_TABLES = {
  smpp: { table: 'smpp_credentials', column: 'system_id' },
  ucloud: { table: 'ucloud_keys', column: 'public_key' },
} as const;

/** Deletes an account's credential and its key record together; true when it had one. */
export function deleteWithRecord(
  pool: Pool,
  kind: Exclude<KeyKind, 'api'>,
  at: { accountId: number; name: string },
): Promise<boolean> {
  const { table, column } = CREDENTIAL_TABLES[kind];
  return inTransaction(pool, async (client) => {
    await client.query('DELETE FROM api_keys WHERE account_id = $1 AND key_hash = $2', [
      at.accountId,
      credentialHash(kind, at.name),
    ]);
    const r = await client.query(`DELETE FROM ${table} WHERE account_id = $1 AND ${column} = $2`, [
      at.accountId,
      at.name,
    ]);
    return r.rowCount === 1;
  });
}
