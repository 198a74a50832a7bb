import type { StatisticsStore } from '../../domain/ports.js';
import type { StatisticsRow } from '../../domain/statistics/send-statistics.js';
import type { Db } from './database.js';

// Grouped by day and number here, by region in the domain: a region is libphonenumber's verdict
// on a number, which SQL cannot give.
const SQL = `
  SELECT strftime('%Y-%m-%d', m.accepted_at / 1000, 'unixepoch') AS sendDate, m.e164 AS e164,
         m.receipt_result AS result, count(*) AS count, sum(m.cost_count) AS costCount
  FROM messages m
  WHERE m.account_id = ? AND m.kind = 'sms' AND m.accepted_at >= ? AND m.accepted_at < ?`;
const GROUP = ' GROUP BY sendDate, m.e164, m.receipt_result';
const PURPOSE =
  ' AND m.template_id IN (SELECT template_id FROM templates WHERE account_id = m.account_id AND purpose = ?)';

export function sqliteStatistics(db: Db): StatisticsStore {
  const all = db.prepare<unknown[], StatisticsRow>(SQL + GROUP);
  const ofPurpose = db.prepare<unknown[], StatisticsRow>(SQL + PURPOSE + GROUP);
  return {
    async sendStatistics({ accountId, from, to, purpose }) {
      const rows =
        purpose === undefined
          ? all.all(accountId, from, to)
          : ofPurpose.all(accountId, from, to, purpose);
      return rows;
    },
  };
}
