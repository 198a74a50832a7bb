import type { Pool } from './database.js';

/**
 * Deletes an account's rows of `table` by id; answers the ids deleted, in the order asked, each
 * once (another account's id is not among them).
 */
export function ownedDeleter(pool: Pool, table: string, idColumn: string) {
  return async (accountId: number, ids: readonly string[]): Promise<string[]> => {
    if (ids.length === 0) return [];
    const r = await pool.query<Record<string, string>>(
      `DELETE FROM ${table} WHERE account_id = $1 AND ${idColumn} = ANY($2::text[]) RETURNING ${idColumn}`,
      [accountId, ids],
    );
    const gone = new Set(r.rows.map((row) => row[idColumn]));
    return [...new Set(ids)].filter((id) => gone.has(id));
  };
}
