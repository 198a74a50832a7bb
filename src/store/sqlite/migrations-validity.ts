import type { Migration } from './migrations.js';

/**
 * A message's validity (docs/api.md, "SendAt and ValidityPeriod"): the time after which a message
 * not yet handed upstream is not sent but ends expired. Found by an index of the queued ones
 * that have one, so an expiry pass reads only what expires.
 */
export const sqliteMigrationsValidity: readonly Migration[] = [
  {
    version: 25,
    name: 'the time a message not yet handed upstream expires (ValidityPeriod)',
    sql: `
      ALTER TABLE messages ADD COLUMN expires_at INTEGER;
      CREATE INDEX messages_expiring ON messages (expires_at)
        WHERE state = 'queued' AND expires_at IS NOT NULL;
    `,
  },
];
