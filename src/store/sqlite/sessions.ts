import type { QueueStats, SessionView } from '../../domain/views/views.js';
import {
  SESSION_MESSAGE_COLUMNS,
  toSessionView,
  type SessionMessageRow,
  type SessionRow,
} from '../rows/views.js';
import type { Db } from './database.js';

/** Sessions and the dispatch queue as operators see them. */
export function sqliteSessions(db: Db) {
  const session = db.prepare(
    'SELECT session_no, account_id, accepted_count, created_at FROM sessions WHERE session_no = ?',
  );
  const messages = db.prepare(
    `SELECT ${SESSION_MESSAGE_COLUMNS} FROM messages WHERE session_no = ? ORDER BY id LIMIT ?`,
  );
  // Both read the partial index on due_at: queued messages and claims under a lease.
  const depth = db.prepare('SELECT count(*) FROM messages WHERE due_at IS NOT NULL').pluck();
  const oldest = db.prepare('SELECT min(due_at) FROM messages WHERE due_at <= ?').pluck();

  return {
    async queueStats(now: number): Promise<QueueStats> {
      const min = oldest.get(now) as number | null;
      return { depth: depth.get() as number, oldestDueAt: min ?? undefined };
    },
    async sessionView(
      sessionNo: string,
      accountId: number | undefined,
      limit: number,
    ): Promise<SessionView | undefined> {
      const s = session.get(sessionNo) as SessionRow | undefined;
      if (!s || (accountId !== undefined && s.account_id !== accountId)) return undefined;
      return toSessionView(s, messages.all(sessionNo, limit) as SessionMessageRow[]);
    },
  };
}
