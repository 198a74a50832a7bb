import type { BusinessMessageView } from '../../domain/messages/message.js';
import {
  sessionReportOf,
  sessionReportSql,
  businessViewQuery,
  toBusinessView,
  type BusinessRow,
  type EventRow,
  type SessionReportValues,
} from '../rows/receipts.js';
import type { Db } from './database.js';

export function sqliteReceipts(db: Db) {
  const byMessageId = db.prepare<unknown[], BusinessRow>(businessViewQuery('?'));
  const ownMessage = db.prepare<unknown[], BusinessRow>(businessViewQuery('?', '?'));
  const events = db.prepare<unknown[], EventRow>(
    'SELECT status, at, code, descr FROM message_events WHERE message_ref = ? ORDER BY rowid',
  );
  const states = db.prepare<[], { state: string; n: number }>(
    'SELECT state, count(*) AS n FROM messages GROUP BY state',
  );
  const sessionOf = db.prepare('SELECT account_id FROM sessions WHERE session_no = ?').pluck();
  const reportOf = db
    .prepare<unknown[], SessionReportValues>(sessionReportSql(() => '?'))
    .raw(true);
  // Row by row: a session's rows and its receipts are never held side by side.
  const report = (accountId: number, sessionNo: string, now: number) =>
    sessionReportOf(sessionNo, reportOf.iterate(sessionNo, accountId, now));

  return {
    async accountSessions(accountId: number, sessionNos: readonly string[]) {
      return [...new Set(sessionNos)].filter((s) => sessionOf.get(s) === accountId);
    },
    async sessionReceipts(accountId: number, sessionNo: string) {
      // No time is past every held message's: the receipts alone.
      return report(accountId, sessionNo, Number.MAX_SAFE_INTEGER).receipts;
    },
    async sessionReport(accountId: number, sessionNo: string, now: number) {
      return report(accountId, sessionNo, now);
    },
    async getBusinessMessage(
      messageId: string,
      owner: number | 'any',
    ): Promise<BusinessMessageView | undefined> {
      const m = owner === 'any' ? byMessageId.get(messageId) : ownMessage.get(messageId, owner);
      if (!m) return undefined;
      return toBusinessView(m, events.all(m.id));
    },
    async countByState() {
      const out: Record<string, number> = {};
      for (const r of states.all()) out[r.state] = r.n;
      return out;
    },
  };
}
