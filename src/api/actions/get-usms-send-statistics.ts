import { Type } from '@sinclair/typebox';
import { invalid } from '../../domain/errors.js';
import { normalizePhone } from '../../domain/phones/phones.js';
import {
  DAY_MS,
  aggregateStatistics,
  dayStart,
  pageOfStatistics,
  statisticsTotals,
  type StatisticsQuery,
} from '../../domain/statistics/send-statistics.js';
import { defineAction } from '../context.js';
import { IntegerLike } from './schema-types.js';
import { Obj, StatisticsDataInfo, StatisticsTotals } from '../answer-schemas.js';

const Input = Type.Object({
  StartDate: Type.String(),
  EndDate: Type.String(),
  Domestic: IntegerLike,
  Page: IntegerLike,
  NumPerPage: IntegerLike,
  OrderBy: Type.String(),
  OrderType: Type.String(),
  BrevityCode: Type.Optional(Type.String({ maxLength: 1000 })),
  Purpose: Type.Optional(IntegerLike),
});
type Input = (typeof Input)['static'];

/** The longest range one call may count: a year, so that one answer stays bounded. */
const MAX_DAYS = 366;

function queryOf(input: Input): StatisticsQuery {
  const domestic = Number(input.Domestic);
  if (domestic !== 0 && domestic !== 1)
    throw invalid('Domestic', 'must be 0 (international) or 1 (domestic)');
  if (input.OrderBy !== 'SendDate' && input.OrderBy !== 'BrevityCode') {
    throw invalid('OrderBy', 'must be SendDate or BrevityCode');
  }
  if (input.OrderType !== 'asc' && input.OrderType !== 'desc') {
    throw invalid('OrderType', 'must be asc or desc');
  }
  const page = Number(input.Page);
  const numPerPage = Number(input.NumPerPage);
  if (page < 0) throw invalid('Page', 'must be 0 or more (pages are numbered from 0)');
  if (numPerPage < 1 || numPerPage > 1000) throw invalid('NumPerPage', 'must be 1 to 1000');
  const brevityCodes = (input.BrevityCode ?? '')
    .split('-')
    .filter(Boolean)
    .map((c) => c.toUpperCase());
  return {
    domestic,
    brevityCodes,
    orderBy: input.OrderBy,
    orderType: input.OrderType,
    page,
    numPerPage,
  };
}

function rangeOf(input: Input): { from: number; to: number } {
  const from = dayStart('StartDate', input.StartDate);
  const to = dayStart('EndDate', input.EndDate) + DAY_MS;
  if (to <= from) throw invalid('EndDate', 'must not be before StartDate');
  if (to - from > MAX_DAYS * DAY_MS)
    throw invalid('EndDate', `must be at most ${MAX_DAYS} days after StartDate`);
  return { from, to };
}

/**
 * Counts per UTC day and destination country (BrevityCode, ISO 3166), paged from Page 0; a
 * country is domestic when it is the account's default region (docs/ucloud-sdk.md).
 */
export const getUsmsSendStatistics = defineAction(
  {
    scope: 'read',
    repeatable: 'safe',
    summary: 'Counts of sent messages per UTC day and destination country, paged.',
    request: Input,
    answer: Obj({
      Data: Type.Array(StatisticsDataInfo),
      StatisticsData: StatisticsTotals,
      Total: Type.Integer({ minimum: 0 }),
    }),
  },
  async (ctx, input) => {
    const { accountId, deps } = ctx;
    const query = queryOf(input);
    const purpose = input.Purpose === undefined ? undefined : Number(input.Purpose);
    if (purpose !== undefined && ![1, 2, 3].includes(purpose))
      throw invalid('Purpose', 'must be 1, 2 or 3');
    const rows = await deps.store.sendStatistics({ accountId, ...rangeOf(input), purpose });
    const defaultRegion = await ctx.defaultRegion();
    const regionOf = (e164: string) => {
      const phone = normalizePhone(e164, defaultRegion);
      return (phone.ok && phone.country) || 'ZZ';
    };
    const list = aggregateStatistics(rows, query, { regionOf, defaultRegion });
    return {
      Data: pageOfStatistics(list, query),
      StatisticsData: statisticsTotals(list),
      Total: list.length,
    };
  },
);
