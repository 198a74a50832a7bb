import type { ApiKeyStore } from '../../domain/ports.js';
import { API_KEY_COLUMNS, apiKeyArgs, toApiKey, type ApiKeyRow } from '../rows/api-keys.js';
import type { Db } from './database.js';

export function sqliteApiKeys(db: Db): ApiKeyStore {
  const insert = db.prepare(
    `INSERT INTO api_keys (${API_KEY_COLUMNS}) VALUES (${API_KEY_COLUMNS.split(',')
      .map(() => '?')
      .join(',')})`,
  );
  const byHash = db.prepare<unknown[], ApiKeyRow>(
    `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE key_hash = ?`,
  );
  const byId = db.prepare<unknown[], ApiKeyRow>(
    `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ? AND key_id = ?`,
  );
  const all = db.prepare<unknown[], ApiKeyRow>(
    `SELECT ${API_KEY_COLUMNS} FROM api_keys ORDER BY created_at, key_id`,
  );
  const ofAccount = db.prepare<unknown[], ApiKeyRow>(
    `SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE account_id = ? ORDER BY created_at, key_id`,
  );
  // coalesce: a revoked key stays revoked, with its first time and reason.
  const update = db.prepare(
    `UPDATE api_keys SET name = coalesce(?, name), expires_at = coalesce(?, expires_at),
       revoked_reason = CASE WHEN revoked_at IS NULL THEN coalesce(?, revoked_reason) ELSE revoked_reason END,
       revoked_at = coalesce(revoked_at, ?)
     WHERE account_id = ? AND key_id = ?`,
  );
  return {
    ...sqliteKeyUpkeep(db),
    async insertApiKey(key) {
      insert.run(...apiKeyArgs(key));
    },
    async apiKeyByHash(keyHash) {
      const row = byHash.get(keyHash);
      return row && toApiKey(row);
    },
    async listApiKeys(accountId) {
      const rows = accountId === undefined ? all.all() : ofAccount.all(accountId);
      return rows.map(toApiKey);
    },
    async updateApiKey(accountId, keyId, c) {
      const args = [c.name, c.expiresAt, c.revokedReason, c.revokedAt].map((v) => v ?? null);
      if (update.run(...args, accountId, keyId).changes === 0) return undefined;
      const row = byId.get(accountId, keyId);
      return row && toApiKey(row);
    },
  };
}

/** What the gateway does to keys by itself: their last use, and the env keys no longer configured. */
function sqliteKeyUpkeep(db: Db): Pick<ApiKeyStore, 'touchApiKeys' | 'revokeEnvKeysExcept'> {
  const touch = db.prepare(
    `UPDATE api_keys SET last_used_at = ? WHERE key_id = ? AND coalesce(last_used_at, 0) < ?`,
  );
  const envActive = db.prepare<unknown[], { key_id: string; key_hash: string }>(
    `SELECT key_id, key_hash FROM api_keys
     WHERE kind = ? AND source = 'env' AND revoked_at IS NULL`,
  );
  const revoke = db.prepare(
    'UPDATE api_keys SET revoked_at = ?, revoked_reason = ? WHERE key_id = ? AND revoked_at IS NULL',
  );
  return {
    async touchApiKeys(uses) {
      db.transaction(() => {
        for (const u of uses) touch.run(u.at, u.keyId, u.at);
      })();
    },
    async revokeEnvKeysExcept(kind, keep, at, reason) {
      const kept = new Set(keep);
      return db.transaction(() => {
        const gone = envActive.all(kind).filter((k) => !kept.has(k.key_hash));
        for (const k of gone) revoke.run(at, reason, k.key_id);
        return gone.map((k) => k.key_id);
      })();
    },
  };
}
