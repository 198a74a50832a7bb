import { SPLIT_MESSAGES, splitInPlace } from '../rows/issuer-split.js';
import type { Migration } from './migrations.js';

/**
 * An upstream id's issuer as two fields (docs/architecture.md): `route` keeps the channel a
 * message went through, and `upstream` says which of the channel's upstreams answered (an SMSC
 * by name; '' for a channel that is its own). Before, a submit overwrote the route with
 * 'smpp:<smsc>'; rows written so are split here.
 */
export const postgresMigrationsUpstreamIssuer: readonly Migration[] = [
  {
    version: 21,
    name: "an upstream id's issuer as the route (the channel) and the upstream (an SMSC)",
    sql: `
      ${SPLIT_MESSAGES}
      ${splitInPlace('message_parts')}
      ALTER TABLE message_parts DROP CONSTRAINT message_parts_pkey,
        ADD PRIMARY KEY (route, upstream, upstream_id);

      ${splitInPlace('early_reports')}
      ALTER TABLE early_reports DROP CONSTRAINT early_reports_pkey,
        ADD PRIMARY KEY (route, upstream, upstream_id, status);
    `,
  },
];
