import type { ConsoleSessionStore } from '../../domain/ports.js';
import {
  CONSOLE_SESSION_COLUMNS,
  consoleSessionArgs,
  toConsoleSession,
  type ConsoleSessionRow,
} from '../rows/console-sessions.js';
import type { Db } from './database.js';

export function sqliteConsoleSessions(db: Db): ConsoleSessionStore {
  const insert = db.prepare(
    `INSERT INTO console_sessions (${CONSOLE_SESSION_COLUMNS})
     VALUES (${CONSOLE_SESSION_COLUMNS.split(',')
       .map(() => '?')
       .join(',')})`,
  );
  const one = db.prepare<unknown[], ConsoleSessionRow>(
    `SELECT ${CONSOLE_SESSION_COLUMNS} FROM console_sessions WHERE session_hash = ?`,
  );
  const live = db.prepare<unknown[], ConsoleSessionRow>(
    `SELECT ${CONSOLE_SESSION_COLUMNS} FROM console_sessions
     WHERE ended_at IS NULL AND expires_at > ? ORDER BY created_at DESC`,
  );
  const end = (where: string) =>
    db.prepare(
      `UPDATE console_sessions SET ended_at = ?, ended_reason = ? WHERE ended_at IS NULL ${where}`,
    );
  const endOne = end('AND session_hash = ?');
  const endLabel = end('AND substr(session_hash, 1, 12) = ?');
  const endAll = end('');
  // Sessions long over are let go: the table holds what is live and the last day's ends.
  const prune = db.prepare('DELETE FROM console_sessions WHERE expires_at < ?');
  return {
    async insertConsoleSession(s) {
      prune.run(s.createdAt - 24 * 3600_000);
      insert.run(...consoleSessionArgs(s));
    },
    async consoleSession(sessionHash) {
      const row = one.get(sessionHash);
      return row && toConsoleSession(row);
    },
    async endConsoleSessions(which, at, reason) {
      if (which === 'all') return endAll.run(at, reason).changes;
      if ('label' in which) return endLabel.run(at, reason, which.label).changes;
      return endOne.run(at, reason, which.sessionHash).changes;
    },
    async liveConsoleSessions(now) {
      return live.all(now).map(toConsoleSession);
    },
  };
}
