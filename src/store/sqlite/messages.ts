import type { MessageStore } from '../../domain/ports.js';
import { sqliteReplace } from './replace.js';
import { sqliteCancel } from './cancel.js';
import { sqliteAcceptance } from './accept.js';
import { sqliteClaims } from './claims.js';
import type { Db } from './database.js';
import { sqliteOutcomes } from './outcomes.js';
import { sqliteReceipts } from './receipts.js';
import type { SqliteOutbox } from './outbox.js';
import { sqliteReports } from './reports.js';
import type { SqliteWriter } from './writer.js';

/**
 * The messages' life in SQLite, one module per operation: accept, claim (and renew leases),
 * record outcomes, apply reports, read receipts. Each keeps its SQL beside its code.
 */
export function sqliteMessages(db: Db, writer: SqliteWriter, outbox: SqliteOutbox): MessageStore {
  const reports = sqliteReports(db, writer, outbox);
  return {
    ...sqliteAcceptance(db, writer, outbox),
    ...sqliteClaims(db, writer),
    ...sqliteOutcomes(db, writer, reports, outbox),
    ...reports.store,
    ...sqliteReceipts(db),
    ...sqliteCancel(db, outbox),
    ...sqliteReplace(db),
  };
}
