/**
 * Splitting the issuer of rows written before it had two fields (both stores' migrations): a
 * route of 'smpp:<smsc>' becomes the route 'smpp' with the SMSC as its upstream; any other route
 * stays, its upstream ''.
 */
const OLD = "route LIKE 'smpp:%'";

/** The route and the upstream of an old row, as two SELECT expressions. */
export const SPLIT_ROUTE = `CASE WHEN ${OLD} THEN 'smpp' ELSE route END`;
export const SPLIT_UPSTREAM = `CASE WHEN ${OLD} THEN substr(route, 6) ELSE '' END`;

/** Adds the upstream to a table that has a route, and splits its old rows in place. */
export function splitInPlace(table: string): string {
  return `ALTER TABLE ${table} ADD COLUMN upstream TEXT NOT NULL DEFAULT '';
      UPDATE ${table} SET upstream = substr(route, 6), route = 'smpp' WHERE ${OLD};`;
}

/** The messages table: split in place, and its index of upstream ids keyed by the issuer. */
export const SPLIT_MESSAGES = `${splitInPlace('messages')}
      DROP INDEX messages_upstream;
      CREATE INDEX messages_upstream ON messages (route, upstream, upstream_id)
        WHERE upstream_id IS NOT NULL;`;
