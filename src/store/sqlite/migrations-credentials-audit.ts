import type { Migration } from './migrations.js';

/**
 * Credentials as records with one lifecycle (docs/security.md): API keys, console sessions, SMPP
 * credentials and UCloud key pairs; and the audit log of who changed them.
 */
export const sqliteMigrationsCredentialsAudit: readonly Migration[] = [
  {
    version: 18,
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
      ALTER TABLE api_keys ADD COLUMN expires_at INTEGER;
      ALTER TABLE api_keys ADD COLUMN revoked_at INTEGER;
      ALTER TABLE api_keys ADD COLUMN revoked_reason TEXT NOT NULL DEFAULT '';
      ALTER TABLE api_keys ADD COLUMN last_used_at INTEGER;
    `,
  },
  {
    version: 19,
    name: 'console sessions kept server-side, so that logging out ends them everywhere',
    sql: `
      CREATE TABLE console_sessions (
        session_hash TEXT PRIMARY KEY,
        role TEXT NOT NULL,
        account_id INTEGER,
        key_id TEXT,
        address TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        ended_at INTEGER,
        ended_reason TEXT NOT NULL DEFAULT ''
      );
      CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);
    `,
  },
  {
    version: 20,
    name: 'the audit log: who changed what, and when',
    sql: `
      CREATE TABLE audit_log (
        audit_id INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        account_id INTEGER,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        detail TEXT NOT NULL
      );
      CREATE INDEX audit_log_account ON audit_log (account_id, audit_id);
    `,
  },
  {
    version: 21,
    name: 'SMPP credentials and UCloud key pairs as key records, with one lifecycle',
    sql: `
      ALTER TABLE api_keys ADD COLUMN kind TEXT NOT NULL DEFAULT 'api';
      INSERT INTO api_keys (key_id, kind, account_id, key_hash, name, prefix, source, created_at)
        SELECT 'key_' || lower(hex(randomblob(8))), 'smpp', account_id, 'smpp:' || system_id,
          system_id, system_id, 'admin', created_at
        FROM smpp_credentials;
      INSERT INTO api_keys (key_id, kind, account_id, key_hash, name, prefix, source, created_at)
        SELECT 'key_' || lower(hex(randomblob(8))), 'ucloud', account_id, 'ucloud:' || public_key,
          '', public_key, 'admin', created_at
        FROM ucloud_keys;
    `,
  },
  {
    version: 22,
    name: 'console sessions kept by @fastify/session: the CSRF secret of each',
    sql: `
      -- Sessions from before hold none: their cookies are no longer valid either (docs/security.md).
      ALTER TABLE console_sessions ADD COLUMN csrf_secret TEXT NOT NULL DEFAULT '';
    `,
  },
];
