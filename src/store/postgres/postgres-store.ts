import type { Store } from '../../domain/ports.js';
import { postgresSmppCredentials } from './smpp-credentials.js';
import { postgresAccounts } from './accounts.js';
import { postgresApiKeys } from './api-keys.js';
import { postgresConsoleSessions } from './console-sessions.js';
import { postgresAudit } from './audit.js';
import { postgresCluster } from './cluster.js';
import { migrate, openPool, type PostgresOptions } from './database.js';
import { postgresInbox } from './inbox.js';
import { postgresInboxViews } from './inbox-views.js';
import { postgresInbound } from './inbound.js';
import { postgresInboundMedia } from './inbound-media.js';
import { postgresMedia } from './media.js';
import { postgresMessages } from './messages.js';
import { postgresPolicies } from './policy.js';
import { postgresSessions } from './sessions.js';
import { postgresSignatures } from './signatures.js';
import { postgresStatistics } from './statistics.js';
import { postgresTemplates } from './templates.js';
import { postgresUcloudKeys } from './ucloud-keys.js';
import { postgresWebhooks } from './webhooks.js';
import { postgresConversations } from './conversations.js';
import { postgresOptOuts } from './opt-outs.js';

export type { PostgresOptions } from './database.js';

/** The shared store: a connection pool per node, any number of nodes on one database. */
export async function openPostgresStore(options: PostgresOptions): Promise<Store> {
  const pool = openPool(options);
  try {
    await migrate(pool);
  } catch (err) {
    await pool.end();
    throw err;
  }
  const cluster = postgresCluster(pool, options);
  return {
    dialect: 'postgres',
    cluster,
    ...postgresAccounts(pool),
    ...postgresApiKeys(pool),
    ...postgresConsoleSessions(pool),
    ...postgresAudit(pool),
    ...postgresTemplates(pool),
    ...postgresSignatures(pool),
    ...postgresStatistics(pool),
    ...postgresUcloudKeys(pool),
    ...postgresSmppCredentials(pool),
    ...postgresMessages(pool),
    ...postgresPolicies(pool),
    ...postgresInbox(pool),
    ...postgresInboxViews(pool),
    ...postgresSessions(pool),
    ...postgresInbound(pool),
    ...postgresInboundMedia(pool),
    ...postgresMedia(pool),
    ...postgresWebhooks(pool),
    ...postgresConversations(pool),
    ...postgresOptOuts(pool),
    async close() {
      await cluster.close();
      await pool.end();
    },
  };
}
