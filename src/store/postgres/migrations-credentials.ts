import type { Migration } from './migrations.js';

/** The migrations of the credentials' lifecycle (docs/security.md), after the two-way half's. */
export const postgresMigrationsCredentials: readonly Migration[] = [
  {
    version: 16,
    name: 'API keys as records: id, name, prefix, scopes, source, expiry, revocation, last use',
    sql: `
      -- Keys made before this have no id: one is made from their hash (which stays secret).
      ALTER TABLE api_keys ADD COLUMN key_id TEXT;
      UPDATE api_keys SET key_id = 'key_' || substr(key_hash, 1, 16);
      CREATE UNIQUE INDEX api_keys_id ON api_keys (key_id);
      CREATE INDEX api_keys_account ON api_keys (account_id, created_at);
      ALTER TABLE api_keys ADD COLUMN name TEXT NOT NULL DEFAULT '';
      ALTER TABLE api_keys ADD COLUMN prefix TEXT NOT NULL DEFAULT '';
      ALTER TABLE api_keys ADD COLUMN scopes TEXT NOT NULL DEFAULT '';
      ALTER TABLE api_keys ADD COLUMN source TEXT NOT NULL DEFAULT 'admin';
      ALTER TABLE api_keys ADD COLUMN expires_at BIGINT;
      ALTER TABLE api_keys ADD COLUMN revoked_at BIGINT;
      ALTER TABLE api_keys ADD COLUMN revoked_reason TEXT NOT NULL DEFAULT '';
      ALTER TABLE api_keys ADD COLUMN last_used_at BIGINT;
    `,
  },
];
