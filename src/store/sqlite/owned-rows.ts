import type { Db } from './database.js';

/**
 * Deletes an account's rows of `table` by id, in one transaction; answers the ids deleted, in
 * the order asked (an id asked twice, or another account's, is not among them).
 */
export function ownedDeleter(db: Db, table: string, idColumn: string) {
  const remove = db
    .prepare(`DELETE FROM ${table} WHERE account_id = ? AND ${idColumn} = ? RETURNING ${idColumn}`)
    .pluck();
  return async (accountId: number, ids: readonly string[]): Promise<string[]> =>
    db.transaction(() => ids.filter((id) => remove.all(accountId, id).length > 0))();
}
