import type { Db } from './database.js';

/** Rows per INSERT: one statement for many rows costs far less than one statement per row. */
export const ROWS_PER_INSERT = 64;

/**
 * The prepared `head VALUES row,row,… tail` statement for each row count, prepared once: a batch
 * is written in chunks of ROWS_PER_INSERT and one shorter last chunk.
 */
export function multiRowInsert(
  db: Db,
  head: string,
  row: string,
  tail = '',
): (rows: number) => ReturnType<Db['prepare']> {
  const statements = new Map<number, ReturnType<Db['prepare']>>();
  return (rows) => {
    let s = statements.get(rows);
    if (!s) {
      s = db.prepare(`${head} ${Array.from({ length: rows }, () => row).join(',')} ${tail}`);
      statements.set(rows, s);
    }
    return s;
  };
}
