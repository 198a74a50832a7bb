import type { Store } from '../../domain/ports.js';
import { sqliteAccounts } from './accounts.js';
import { migrate, openDatabase, type SqliteOptions } from './database.js';
import { sqliteInbox } from './inbox.js';
import { sqliteInboxViews } from './inbox-views.js';
import { sqliteMedia } from './media.js';
import { sqliteMessages } from './messages.js';
import { sqliteSessions } from './sessions.js';
import { sqliteTemplates } from './templates.js';

/** The embedded store: one better-sqlite3 connection, the single writer of the process. */
export function openSqliteStore(options: SqliteOptions): Store {
  const db = openDatabase(options);
  migrate(db);
  return {
    dialect: 'sqlite',
    ...sqliteAccounts(db),
    ...sqliteTemplates(db),
    ...sqliteMessages(db),
    ...sqliteInbox(db),
    ...sqliteInboxViews(db),
    ...sqliteSessions(db),
    ...sqliteMedia(db),
    async close() {
      db.close();
    },
  };
}
