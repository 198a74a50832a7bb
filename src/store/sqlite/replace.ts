import type { MessageStore } from '../../domain/ports.js';
import { replaceSql } from '../rows/replace.js';
import type { Db } from './database.js';

/** replace_sm's change of held SMS; the statement differs by what is changed, so it is built. */
export function sqliteReplace(db: Db): Pick<MessageStore, 'replaceQueued'> {
  return {
    async replaceQueued(accountId, sessionNo, change) {
      const { sql, values } = replaceSql(() => '?', accountId, sessionNo, change);
      return db.prepare(sql).run(...values).changes;
    },
  };
}
