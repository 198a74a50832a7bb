/**
 * The WHERE clause of the console's inbox searches, for both adapters: each names its own
 * placeholders, its id-list test and its case-insensitive LIKE.
 */
import type { InboxSearch } from '../domain/views/views.js';

export interface Dialect {
  /** The placeholder of the last of the values so far. */
  param(values: readonly unknown[]): string;
  /** `i.id` among a list of ids, given as one value per placeholder. */
  idIn(ids: readonly number[], values: unknown[]): string;
  /** LIKE in SQLite (case-insensitive for ASCII letters), ILIKE in PostgreSQL. */
  like: 'LIKE' | 'ILIKE';
}

export function inboxConditions(
  filter: Omit<InboxSearch, 'limit'>,
  dialect: Dialect,
): { where: string; values: unknown[] } {
  const parts: string[] = [];
  const values: unknown[] = [];
  const next = (value: unknown) => {
    values.push(value);
    return dialect.param(values);
  };
  if (filter.accountId !== undefined) parts.push(`m.account_id = ${next(filter.accountId)}`);
  if (filter.phone !== undefined) parts.push(`i.to_addr = ${next(filter.phone)}`);
  if (filter.query) {
    // The query is a substring: LIKE's wildcards in it are taken literally.
    const pattern = `%${filter.query.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const like = (column: string) => `${column} ${dialect.like} ${next(pattern)} ESCAPE '\\'`;
    parts.push(`(${like('i.to_addr')} OR ${like('i.body')})`);
  }
  if (filter.ids) parts.push(dialect.idIn(filter.ids, values));
  return { where: parts.length ? `WHERE ${parts.join(' AND ')}` : '', values };
}
