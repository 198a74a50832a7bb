import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RetCode, WirebirdError } from '../errors.js';
import {
  aggregateStatistics,
  dayStart,
  pageOfStatistics,
  statisticsTotals,
  type StatisticsQuery,
  type StatisticsRow,
} from './send-statistics.js';

const REGIONS: Record<string, string> = { '+86a': 'CN', '+86b': 'CN', '+44a': 'GB', '+62a': 'ID' };
const ctx = { regionOf: (e164: string) => REGIONS[e164] ?? 'ZZ', defaultRegion: 'CN' };
const query = (over: Partial<StatisticsQuery> = {}): StatisticsQuery => ({
  domestic: 0,
  brevityCodes: [],
  orderBy: 'SendDate',
  orderType: 'asc',
  page: 0,
  numPerPage: 10,
  ...over,
});
const row = (
  sendDate: string,
  e164: string,
  result: string | null,
  count: number,
  costCount = count,
): StatisticsRow => ({
  sendDate,
  e164,
  result,
  count,
  costCount,
});

const ROWS = [
  row('2026-11-01', '+86a', 'Success', 3, 6),
  row('2026-11-01', '+86b', 'Fail', 1),
  row('2026-11-01', '+86a', null, 2),
  row('2026-11-01', '+44a', 'SubmitFail', 1, 2),
  row('2026-11-02', '+44a', 'Unknow', 1),
  row('2026-11-02', '+62a', 'Success', 4),
];

test('domestic groups per day: each result counted as messages and segments, pending as unknown', () => {
  const [cn] = aggregateStatistics(ROWS, query({ domestic: 1 }), ctx);
  assert.deepEqual(cn, {
    SendDate: '2026-11-01',
    BrevityCode: 'CN',
    Count: 6,
    CostCount: 9,
    SuccessCount: 3,
    SuccessCostCount: 6,
    FailedCount: 1,
    FailedCostCount: 1,
    SubmitFailedCount: 0,
    SubmitFailedCostCount: 0,
    UnknownCount: 2,
    UnknownCostCount: 2,
    SuccessRate: 0.5,
  });
});

test('international: one group per day and region, filtered by BrevityCode, ordered and paged', () => {
  const all = aggregateStatistics(ROWS, query(), ctx);
  assert.deepEqual(all.map((i) => `${i.SendDate} ${i.BrevityCode}`).sort(), [
    '2026-11-01 GB',
    '2026-11-02 GB',
    '2026-11-02 ID',
  ]);
  const onlyId = aggregateStatistics(ROWS, query({ brevityCodes: ['ID'] }), ctx);
  assert.deepEqual(
    onlyId.map((i) => i.BrevityCode),
    ['ID'],
  );
  const byCodeDesc = pageOfStatistics(all, query({ orderBy: 'BrevityCode', orderType: 'desc' }));
  assert.deepEqual(
    byCodeDesc.map((i) => `${i.BrevityCode} ${i.SendDate}`),
    ['ID 2026-11-02', 'GB 2026-11-01', 'GB 2026-11-02'],
  );
  const page1 = pageOfStatistics(all, query({ page: 1, numPerPage: 2 }));
  assert.deepEqual(
    page1.map((i) => `${i.SendDate} ${i.BrevityCode}`),
    ['2026-11-02 ID'],
  );
  const totals = statisticsTotals(all);
  assert.equal(totals.SendCount, 6);
  assert.equal(totals.SubmitFailCostCount, 2);
  assert.equal(totals.UnknownCount, 1);
});

test('dates are YYYY-MM-DD days that exist, read as UTC midnight', () => {
  assert.equal(dayStart('StartDate', '2026-11-25'), Date.UTC(2026, 10, 25));
  for (const bad of ['2026-13-01', '2026-02-30', '25/11/2026', '2026-1-1', '']) {
    assert.throws(
      () => dayStart('StartDate', bad),
      (e: unknown) =>
        e instanceof WirebirdError &&
        e.retCode === RetCode.InvalidParameter &&
        /^StartDate/.test(e.message),
    );
  }
});
