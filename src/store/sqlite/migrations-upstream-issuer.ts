import { SPLIT_MESSAGES, SPLIT_ROUTE, SPLIT_UPSTREAM } from '../rows/issuer-split.js';
import type { Migration } from './migrations.js';

/**
 * An upstream id's issuer as two fields (docs/architecture.md): `route` keeps the channel a
 * message went through, and `upstream` says which of the channel's upstreams answered (an SMSC
 * by name; '' for a channel that is its own). Before, a submit overwrote the route with
 * 'smpp:<smsc>'; rows written so are split here.
 */
export const sqliteMigrationsUpstreamIssuer: readonly Migration[] = [
  {
    version: 23,
    name: "an upstream id's issuer as the route (the channel) and the upstream (an SMSC)",
    sql: `
      ${SPLIT_MESSAGES}

      -- A primary key cannot be altered in SQLite: the two keyed tables are copied.
      CREATE TABLE message_parts_issued (
        route TEXT NOT NULL,
        upstream TEXT NOT NULL,
        upstream_id TEXT NOT NULL,
        message_ref INTEGER NOT NULL,
        part_no INTEGER NOT NULL,
        status TEXT,
        code TEXT,
        descr TEXT,
        PRIMARY KEY (route, upstream, upstream_id)
      );
      INSERT INTO message_parts_issued
        SELECT ${SPLIT_ROUTE}, ${SPLIT_UPSTREAM}, upstream_id, message_ref, part_no, status, code, descr
        FROM message_parts;
      DROP TABLE message_parts;
      ALTER TABLE message_parts_issued RENAME TO message_parts;
      CREATE INDEX message_parts_ref ON message_parts (message_ref, part_no);

      CREATE TABLE early_reports_issued (
        route TEXT NOT NULL,
        upstream TEXT NOT NULL,
        upstream_id TEXT NOT NULL,
        status TEXT NOT NULL,
        code TEXT NOT NULL,
        descr TEXT NOT NULL,
        at INTEGER NOT NULL,
        received_at INTEGER NOT NULL,
        PRIMARY KEY (route, upstream, upstream_id, status)
      );
      INSERT INTO early_reports_issued
        SELECT ${SPLIT_ROUTE}, ${SPLIT_UPSTREAM}, upstream_id, status, code, descr, at, received_at
        FROM early_reports;
      DROP TABLE early_reports;
      ALTER TABLE early_reports_issued RENAME TO early_reports;
    `,
  },
];
