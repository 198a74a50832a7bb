import type { MessageStore } from '../../domain/ports.js';
import { replaceSql } from '../rows/replace.js';
import type { Pool } from './database.js';

/** replace_sm's change of held SMS: one statement, its own transaction. */
export function postgresReplace(pool: Pool): Pick<MessageStore, 'replaceQueued'> {
  return {
    async replaceQueued(accountId, sessionNo, change) {
      const { sql, values } = replaceSql((n) => `$${n}`, accountId, sessionNo, change);
      return (await pool.query(sql, values)).rowCount ?? 0;
    },
  };
}
