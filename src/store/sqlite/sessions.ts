import { HELD_SQL, heldSql, toHeld, type HeldRow } from '../rows/views.js';
import type { HeldFilter, QueueStats, SessionView } from '../../domain/views/views.js';
import {
  RESULT_COUNTS_SQL,
  SESSION_MESSAGE_COLUMNS,
  toSessionSummary,
  toSessionView,
  type ResultCountRow,
  type SessionMessageRow,
  type SessionRow,
} from '../rows/views.js';
import type { Db } from './database.js';

/** Sessions and the dispatch queue as operators see them. */
export function sqliteSessions(db: Db) {
  const session = db.prepare<unknown[], SessionRow>(
    'SELECT session_no, account_id, accepted_count, created_at FROM sessions WHERE session_no = ?',
  );
  const counts = db.prepare<unknown[], ResultCountRow>(
    `${RESULT_COUNTS_SQL} WHERE session_no = ? GROUP BY receipt_result`,
  );
  const SESSION_COLUMNS = 'session_no, account_id, accepted_count, created_at';
  const recentAll = db.prepare<unknown[], SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM sessions ORDER BY created_at DESC, session_no LIMIT ?`,
  );
  const recentOfAccount = db.prepare<unknown[], SessionRow>(
    `SELECT ${SESSION_COLUMNS} FROM sessions WHERE account_id = ?
     ORDER BY created_at DESC, session_no LIMIT ?`,
  );
  const summary = (s: SessionRow) => toSessionSummary(s, counts.all(s.session_no));
  const messages = db.prepare<unknown[], SessionMessageRow>(
    `SELECT ${SESSION_MESSAGE_COLUMNS} FROM messages WHERE session_no = ? ORDER BY id LIMIT ?`,
  );
  // Both read the partial index on due_at: queued messages and claims under a lease.
  const depth = db
    .prepare<unknown[], number>('SELECT count(*) FROM messages WHERE due_at IS NOT NULL')
    .pluck();
  const oldest = db
    .prepare<unknown[], number | null>('SELECT min(due_at) FROM messages WHERE due_at <= ?')
    .pluck();
  const held = db.prepare<unknown[], number>(HELD_SQL('?')).pluck();

  return {
    async queueStats(now: number): Promise<QueueStats> {
      const min = oldest.get(now);
      return { depth: depth.get() ?? 0, oldestDueAt: min ?? undefined, held: held.get(now) ?? 0 };
    },
    async sessionView(
      sessionNo: string,
      accountId: number | undefined,
      limit: number,
    ): Promise<SessionView | undefined> {
      const s = session.get(sessionNo);
      if (!s || (accountId !== undefined && s.account_id !== accountId)) return undefined;
      const rows = messages.all(sessionNo, limit);
      return toSessionView(s, counts.all(sessionNo), rows);
    },
    async recentSessions({ accountId, limit }: { accountId?: number; limit: number }) {
      const rows =
        accountId === undefined ? recentAll.all(limit) : recentOfAccount.all(accountId, limit);
      return rows.map(summary);
    },
    async heldMessages(filter: HeldFilter) {
      // The statement differs by the filters given; the console asks for one page at a time.
      const { sql, values } = heldSql(() => '?', filter);
      return db
        .prepare<unknown[], HeldRow>(sql)
        .all(...values)
        .map(toHeld);
    },
  };
}
