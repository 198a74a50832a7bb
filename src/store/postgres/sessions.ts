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
import type { Pool } from './database.js';

/** Sessions and the dispatch queue as operators see them. */
export function postgresSessions(pool: Pool) {
  const countsOf = async (sessionNo: string) =>
    (
      await pool.query<ResultCountRow>(
        `${RESULT_COUNTS_SQL} WHERE session_no = $1 GROUP BY receipt_result`,
        [sessionNo],
      )
    ).rows;
  return {
    async queueStats(now: number): Promise<QueueStats> {
      // Both read the partial index on due_at: queued messages and claims under a lease.
      const r = await pool.query<{ depth: number; oldest: number | null; held: number }>(
        `SELECT (SELECT count(*) FROM messages WHERE due_at IS NOT NULL) AS depth,
           (SELECT min(due_at) FROM messages WHERE due_at <= $1) AS oldest,
           (${HELD_SQL('$1')}) AS held`,
        [now],
      );
      const row = r.rows[0];
      return {
        depth: row?.depth ?? 0,
        oldestDueAt: row?.oldest ?? undefined,
        held: row?.held ?? 0,
      };
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
      return toSessionView(session, await countsOf(sessionNo), m.rows);
    },
    async heldMessages(filter: HeldFilter) {
      const { sql, values } = heldSql((n) => `$${n}`, filter);
      return (await pool.query<HeldRow>(sql, values)).rows.map(toHeld);
    },
    async recentSessions({ accountId, limit }: { accountId?: number; limit: number }) {
      const s = await pool.query<SessionRow>(
        `SELECT session_no, account_id, accepted_count, created_at FROM sessions
         WHERE ($1::bigint IS NULL OR account_id = $1)
         ORDER BY created_at DESC, session_no LIMIT $2`,
        [accountId ?? null, limit],
      );
      return Promise.all(
        s.rows.map(async (row) => toSessionSummary(row, await countsOf(row.session_no))),
      );
    },
  };
}
