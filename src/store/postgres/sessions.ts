import type { QueueStats, SessionView } from '../../domain/views/views.js';
import {
  SESSION_MESSAGE_COLUMNS,
  toSessionView,
  type SessionMessageRow,
  type SessionRow,
} from '../rows/views.js';
import type { Pool } from './database.js';

/** Sessions and the dispatch queue as operators see them. */
export function postgresSessions(pool: Pool) {
  return {
    async queueStats(now: number): Promise<QueueStats> {
      // Both read the partial index on due_at: queued messages and claims under a lease.
      const r = await pool.query<{ depth: number; oldest: number | null }>(
        `SELECT (SELECT count(*) FROM messages WHERE due_at IS NOT NULL) AS depth,
           (SELECT min(due_at) FROM messages WHERE due_at <= $1) AS oldest`,
        [now],
      );
      const row = r.rows[0];
      return { depth: row?.depth ?? 0, oldestDueAt: row?.oldest ?? undefined };
    },
    async sessionView(
      sessionNo: string,
      accountId: number | undefined,
      limit: number,
    ): Promise<SessionView | undefined> {
      const s = await pool.query<SessionRow>(
        `SELECT session_no, account_id, accepted_count, created_at FROM sessions
         WHERE session_no = $1 AND ($2::bigint IS NULL OR account_id = $2)`,
        [sessionNo, accountId ?? null],
      );
      const session = s.rows[0];
      if (!session) return undefined;
      const m = await pool.query<SessionMessageRow>(
        `SELECT ${SESSION_MESSAGE_COLUMNS} FROM messages WHERE session_no = $1 ORDER BY id LIMIT $2`,
        [sessionNo, limit],
      );
      return toSessionView(session, m.rows);
    },
  };
}
