import { sqliteConversations } from './conversations.js';
import { sqliteInbound } from './inbound.js';
import { sqliteSmppCredentials } from './smpp-credentials.js';
import { sqliteInboundMedia } from './inbound-media.js';
import type { Store } from '../../domain/ports.js';
import { sqliteAccounts } from './accounts.js';
import { sqliteApiKeys } from './api-keys.js';
import { sqliteConsoleSessions } from './console-sessions.js';
import { sqliteAudit } from './audit.js';
import { migrate, openDatabase, type Db, type SqliteOptions } from './database.js';
import { sqliteInbox } from './inbox.js';
import { sqliteInboxViews } from './inbox-views.js';
import { sqliteMedia } from './media.js';
import { sqliteMessages } from './messages.js';
import { sqliteOptOuts } from './opt-outs.js';
import { sqliteOutbox } from './outbox.js';
import { sqlitePolicies } from './policy.js';
import { sqliteSessions } from './sessions.js';
import { sqliteSignatures } from './signatures.js';
import { sqliteStatistics } from './statistics.js';
import { sqliteTemplates } from './templates.js';
import { sqliteUcloudKeys } from './ucloud-keys.js';
import { sqliteWebhooks } from './webhooks.js';
import { lockWrites, type WriteLock } from './write-lock.js';
import { sqliteWriter } from './writer.js';

/**
 * The embedded store on one better-sqlite3 connection. With a write lock, other threads of the
 * process (the acceptance threads) write to the same file through connections of their own.
 */
export function openSqliteStore(
  options: SqliteOptions & { writeLock?: WriteLock; migrated?: boolean },
): Store {
  const opened = openDatabase(options);
  const db = options.writeLock ? lockWrites(opened, options.writeLock) : opened;
  if (!options.migrated) migrate(db);
  return sqliteStoreOn(db, options.writeLock);
}

/**
 * The store's operations on a connection to an already migrated database; `writeLock` when other
 * threads of the process write to it (its writer then waits for them without blocking).
 */
export function sqliteStoreOn(db: Db, writeLock?: WriteLock): Store {
  const outbox = sqliteOutbox(db);
  // The hot path's writes (acceptance, claims, outcomes, reports, the inbox, inbound messages,
  // deliveries) commit together, once per turn of the event loop.
  const writer = sqliteWriter(db, undefined, writeLock);
  const optOuts = sqliteOptOuts(db, outbox);
  return {
    dialect: 'sqlite',
    ...sqliteAccounts(db),
    ...sqliteApiKeys(db),
    ...sqliteConsoleSessions(db),
    ...sqliteAudit(db),
    ...sqliteTemplates(db, outbox),
    ...sqliteSignatures(db),
    ...sqliteStatistics(db),
    ...sqliteUcloudKeys(db),
    ...sqliteSmppCredentials(db),
    ...sqliteMessages(db, writer, outbox),
    ...sqlitePolicies(db),
    ...sqliteInbox(db, writer),
    ...sqliteInboxViews(db),
    ...sqliteSessions(db),
    ...sqliteMedia(db),
    ...sqliteInbound(db, writer, outbox, optOuts),
    ...sqliteInboundMedia(db, outbox),
    ...optOuts.store,
    ...sqliteWebhooks(db, writer, outbox),
    ...sqliteConversations(db, outbox),
    async close() {
      writer.drain();
      db.close();
    },
  };
}
