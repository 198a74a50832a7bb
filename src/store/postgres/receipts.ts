import type { BusinessMessageView } from '../../domain/messages/message.js';
import {
  businessViewQuery,
  toBusinessView,
  sessionReportOf,
  sessionReportSql,
  type BusinessRow,
  type EventRow,
  type SessionReportValues,
} from '../rows/receipts.js';
import type { Pool } from './database.js';

export function postgresReceipts(pool: Pool) {
  const report = async (accountId: number, sessionNo: string, now: number) => {
    const r = await pool.query<SessionReportValues>({
      text: sessionReportSql((n) => `$${n}`),
      values: [sessionNo, accountId, now],
      rowMode: 'array',
    });
    return sessionReportOf(sessionNo, r.rows);
  };
  return {
    async accountSessions(accountId: number, sessionNos: readonly string[]) {
      if (sessionNos.length === 0) return [];
      const known = await pool.query<{ session_no: string }>(
        'SELECT session_no FROM sessions WHERE account_id = $1 AND session_no = ANY($2::text[])',
        [accountId, sessionNos],
      );
      const mine = new Set(known.rows.map((k) => k.session_no));
      return [...new Set(sessionNos.filter((s) => mine.has(s)))];
    },
    async sessionReceipts(accountId: number, sessionNo: string) {
      // No time is past every held message's: the receipts alone.
      return (await report(accountId, sessionNo, Number.MAX_SAFE_INTEGER)).receipts;
    },
    async sessionReport(accountId: number, sessionNo: string, now: number) {
      return report(accountId, sessionNo, now);
    },
    async getBusinessMessage(
      messageId: string,
      owner: number | 'any',
    ): Promise<BusinessMessageView | undefined> {
      const r =
        owner === 'any'
          ? await pool.query<BusinessRow>(businessViewQuery('$1'), [messageId])
          : await pool.query<BusinessRow>(businessViewQuery('$1', '$2'), [messageId, owner]);
      const m = r.rows[0];
      if (!m) return undefined;
      const events = await pool.query<EventRow>(
        'SELECT status, at, code, descr FROM message_events WHERE message_ref = $1 ORDER BY id',
        [m.id],
      );
      return toBusinessView(m, events.rows);
    },
    async countByState() {
      const r = await pool.query<{ state: string; n: number }>(
        'SELECT state, count(*) AS n FROM messages GROUP BY state',
      );
      const out: Record<string, number> = {};
      for (const row of r.rows) out[row.state] = row.n;
      return out;
    },
  };
}
