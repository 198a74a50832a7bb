import type { MessageStore } from '../../domain/ports.js';
import { postgresReplace } from './replace.js';
import { postgresAcceptance } from './accept.js';
import { postgresClaims } from './claims.js';
import type { Pool } from './database.js';
import { postgresOutcomes } from './outcomes.js';
import { postgresReceipts } from './receipts.js';
import { postgresCancel } from './cancel.js';
import { postgresReports } from './reports.js';

/**
 * The messages' life in PostgreSQL, one module per operation: accept, claim (and renew leases),
 * record outcomes, apply reports, read receipts. Each keeps its SQL beside its code.
 */
export function postgresMessages(pool: Pool): MessageStore {
  const reports = postgresReports(pool);
  return {
    ...postgresAcceptance(pool),
    ...postgresClaims(pool),
    ...postgresOutcomes(pool, reports),
    ...reports,
    ...postgresReceipts(pool),
    ...postgresCancel(pool),
    ...postgresReplace(pool),
  };
}
