/**
 * GetUSMSSendStatistics (UCloud dialect, docs/ucloud-sdk.md): counts of SMS sent per day and
 * per destination country, each as messages and as billed segments (CostCount). A message not
 * yet in a final state is counted as unknown, as its status is not known yet.
 */
import { invalid } from '../errors.js';

/** One group the store counted: the messages of one day to one number with one final result. */
export interface StatisticsRow {
  sendDate: string;
  e164: string;
  /** Success, Fail, SubmitFail, Unknow, or null while the message is not final. */
  result: string | null;
  count: number;
  costCount: number;
}

export interface StatisticsQuery {
  /** 1 domestic (the gateway's default region), 0 international. */
  domestic: 0 | 1;
  /** ISO regions to keep; empty keeps all. */
  brevityCodes: readonly string[];
  orderBy: 'SendDate' | 'BrevityCode';
  orderType: 'asc' | 'desc';
  page: number;
  numPerPage: number;
}

const OUTCOMES = ['Success', 'Failed', 'SubmitFailed', 'Unknown'] as const;
type Outcome = (typeof OUTCOMES)[number];
const OUTCOME_OF: Record<string, Outcome> = {
  Success: 'Success',
  Fail: 'Failed',
  SubmitFail: 'SubmitFailed',
};

export interface StatisticsDataInfo {
  SendDate: string;
  BrevityCode: string;
  Count: number;
  CostCount: number;
  SuccessCount: number;
  SuccessCostCount: number;
  FailedCount: number;
  FailedCostCount: number;
  SubmitFailedCount: number;
  SubmitFailedCostCount: number;
  UnknownCount: number;
  UnknownCostCount: number;
  SuccessRate: number;
}

function emptyInfo(sendDate: string, brevityCode: string): StatisticsDataInfo {
  const info = { SendDate: sendDate, BrevityCode: brevityCode, Count: 0, CostCount: 0 };
  const counts = Object.fromEntries(
    OUTCOMES.flatMap((o) => [
      [`${o}Count`, 0],
      [`${o}CostCount`, 0],
    ]),
  );
  // SuccessRate is filled in by the caller once the totals are known.
  return { ...info, ...counts, SuccessRate: 0 } as StatisticsDataInfo;
}

/** Groups rows per (day, region), keeping the regions the query asks for. */
export function aggregateStatistics(
  rows: readonly StatisticsRow[],
  query: StatisticsQuery,
  ctx: { regionOf(e164: string): string; defaultRegion: string },
): StatisticsDataInfo[] {
  const groups = new Map<string, StatisticsDataInfo>();
  for (const row of rows) {
    const region = ctx.regionOf(row.e164);
    if ((region === ctx.defaultRegion ? 1 : 0) !== query.domestic) continue;
    if (query.brevityCodes.length > 0 && !query.brevityCodes.includes(region)) continue;
    const key = `${row.sendDate} ${region}`;
    const info = groups.get(key) ?? emptyInfo(row.sendDate, region);
    groups.set(key, info);
    const outcome = (row.result && OUTCOME_OF[row.result]) || 'Unknown';
    info.Count += row.count;
    info.CostCount += row.costCount;
    info[`${outcome}Count`] += row.count;
    info[`${outcome}CostCount`] += row.costCount;
  }
  const list = [...groups.values()];
  for (const info of list) {
    info.SuccessRate =
      info.Count === 0 ? 0 : Math.round((info.SuccessCount / info.Count) * 1e4) / 1e4;
  }
  return list;
}

/** The sums over every group (UCloud's StatisticsData), before paging. */
export function statisticsTotals(list: readonly StatisticsDataInfo[]): Record<string, number> {
  // Called only with the numeric fields of StatisticsDataInfo.
  const sum = (f: keyof StatisticsDataInfo) => list.reduce((n, i) => n + (i[f] as number), 0);
  return {
    SendCount: sum('Count'),
    SendCostCount: sum('CostCount'),
    SuccessCount: sum('SuccessCount'),
    SuccessCostCount: sum('SuccessCostCount'),
    FailCount: sum('FailedCount'),
    FailCostCount: sum('FailedCostCount'),
    SubmitFailCount: sum('SubmitFailedCount'),
    SubmitFailCostCount: sum('SubmitFailedCostCount'),
    UnknownCount: sum('UnknownCount'),
    UnknownCostCount: sum('UnknownCostCount'),
  };
}

/** Ordered by the field asked for (then by the other one, ascending) and cut to the page. */
export function pageOfStatistics(
  list: readonly StatisticsDataInfo[],
  query: StatisticsQuery,
): StatisticsDataInfo[] {
  const other = query.orderBy === 'SendDate' ? 'BrevityCode' : 'SendDate';
  const sign = query.orderType === 'asc' ? 1 : -1;
  const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const sorted = [...list].sort(
    (a, b) => sign * cmp(a[query.orderBy], b[query.orderBy]) || cmp(a[other], b[other]),
  );
  const start = query.page * query.numPerPage;
  return sorted.slice(start, start + query.numPerPage);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` as the first millisecond of that day, UTC; refused naming the field otherwise. */
export function dayStart(field: string, date: string): number {
  const m = DATE.exec(date);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== date) {
    throw invalid(field, 'must be a date written YYYY-MM-DD');
  }
  return ms;
}

export const DAY_MS = 24 * 3600 * 1000;
