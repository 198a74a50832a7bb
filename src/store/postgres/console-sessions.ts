import type { Pool } from 'pg';
import type { ConsoleSessionStore } from '../../domain/ports.js';
import {
  CONSOLE_SESSION_COLUMNS,
  consoleSessionArgs,
  toConsoleSession,
  type ConsoleSessionRow,
} from '../rows/console-sessions.js';

export function postgresConsoleSessions(pool: Pool): ConsoleSessionStore {
  return {
    async insertConsoleSession(s) {
      // Sessions long over are let go: the table holds what is live and the last day's ends.
      await pool.query('DELETE FROM console_sessions WHERE expires_at < $1', [
        s.createdAt - 24 * 3600_000,
      ]);
      const args = consoleSessionArgs(s);
      await pool.query(
        `INSERT INTO console_sessions (${CONSOLE_SESSION_COLUMNS})
         VALUES (${args.map((_, i) => `$${i + 1}`).join(',')})`,
        args,
      );
    },
    async consoleSession(sessionHash) {
      const r = await pool.query<ConsoleSessionRow>(
        `SELECT ${CONSOLE_SESSION_COLUMNS} FROM console_sessions WHERE session_hash = $1`,
        [sessionHash],
      );
      return r.rows[0] && toConsoleSession(r.rows[0]);
    },
    async endConsoleSessions(which, at, reason) {
      const [where, args] =
        which === 'all'
          ? ['', []]
          : 'label' in which
            ? ['AND substr(session_hash, 1, 12) = $3', [which.label]]
            : ['AND session_hash = $3', [which.sessionHash]];
      const r = await pool.query(
        `UPDATE console_sessions SET ended_at = $1, ended_reason = $2 WHERE ended_at IS NULL ${where}`,
        [at, reason, ...args],
      );
      return r.rowCount ?? 0;
    },
    async liveConsoleSessions(now) {
      const r = await pool.query<ConsoleSessionRow>(
        `SELECT ${CONSOLE_SESSION_COLUMNS} FROM console_sessions
         WHERE ended_at IS NULL AND expires_at > $1 ORDER BY created_at DESC`,
        [now],
      );
      return r.rows.map(toConsoleSession);
    },
  };
}
