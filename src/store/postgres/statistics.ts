import type { StatisticsStore } from '../../domain/ports.js';
import type { StatisticsRow } from '../../domain/statistics/send-statistics.js';
import type { Pool } from './database.js';

// Grouped by day and number here, by region in the domain: a region is libphonenumber's verdict
// on a number, which SQL cannot give.
const SQL = `
  SELECT to_char(to_timestamp(m.accepted_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS "sendDate",
         m.e164 AS e164, m.receipt_result AS result, count(*)::int AS count,
         sum(m.cost_count)::int AS "costCount"
  FROM messages m
  WHERE m.account_id = $1 AND m.kind = 'sms' AND m.accepted_at >= $2 AND m.accepted_at < $3`;
const GROUP = ' GROUP BY 1, m.e164, m.receipt_result';
const PURPOSE =
  ' AND m.template_id IN (SELECT template_id FROM templates WHERE account_id = m.account_id AND purpose = $4)';

export function postgresStatistics(pool: Pool): StatisticsStore {
  return {
    async sendStatistics({ accountId, from, to, purpose }) {
      const r =
        purpose === undefined
          ? await pool.query<StatisticsRow>(SQL + GROUP, [accountId, from, to])
          : await pool.query<StatisticsRow>(SQL + PURPOSE + GROUP, [accountId, from, to, purpose]);
      return r.rows;
    },
  };
}
