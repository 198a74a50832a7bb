import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  applyPolicy,
  dayText,
  utcDay,
  type AccountPolicy,
  type PolicyItem,
  type PolicyState,
} from './policy.js';

const NOW = 1_800_000_000_000;
const state = (over: Partial<PolicyState> = {}): PolicyState => ({
  balance: 0,
  usedToday: 0,
  recent: new Map(),
  nextSlot: 0,
  ...over,
});
const item = (over: Partial<PolicyItem> = {}): PolicyItem => ({
  e164: '+447400123456',
  country: 'GB',
  costCount: 1,
  ...over,
});
const decide = (p: Partial<AccountPolicy>, s: PolicyState, items: PolicyItem[]) =>
  applyPolicy({ prepaid: false, ...p }, s, items, { now: NOW, dueAt: NOW });
const rules = (d: ReturnType<typeof decide>) => d.refused.map((r) => [r.index, r.rule]);

test('the first rule a message breaks refuses it, in the order countries, hourly, daily, prepaid', () => {
  const policy = { countries: ['GB'], recipientHourlyLimit: 1, dailyLimit: 2, prepaid: true };
  const d = decide(policy, state({ balance: 1 }), [
    item({ country: 'US', e164: '+14155550101' }),
    item(),
    item(),
    item({ e164: '+447400123457' }),
    item({ e164: '+447400123458' }),
  ]);
  assert.deepEqual(rules(d), [
    [0, 'countries'],
    [2, 'recipient_hourly_limit'],
    [3, 'prepaid'],
    [4, 'prepaid'],
  ]);
  assert.equal(d.cost, 1);
});

test('a refused message leaves its room to a later, cheaper one', () => {
  const d = decide({ dailyLimit: 5 }, state({ usedToday: 2 }), [
    item({ costCount: 2 }),
    item({ costCount: 3, e164: '+447400123457' }),
    item({ costCount: 1, e164: '+447400123458' }),
  ]);
  assert.deepEqual(rules(d), [[1, 'daily_limit']]);
  assert.equal(d.cost, 3);
  assert.match(d.refused[0]?.reason ?? '', /daily limit 5 reached \(DailyLimit\): 4 CostCount/);
});

test('the hourly guard counts what the hour sent and what the batch accepts, not what it refuses', () => {
  const other = '+447400123457';
  const recent = new Map([['+447400123456', 2]]);
  const d = decide({ recipientHourlyLimit: 3, dailyLimit: 3 }, state({ recent }), [
    item(),
    item(),
    item({ e164: other, costCount: 5 }),
    item({ e164: other }),
    item({ e164: other }),
    item({ e164: other }),
  ]);
  assert.deepEqual(rules(d), [
    [1, 'recipient_hourly_limit'],
    [2, 'daily_limit'],
    [5, 'daily_limit'],
  ]);
});

test('a number of no country is outside every Countries list', () => {
  const d = decide({ countries: ['GB'] }, state(), [item({ country: undefined })]);
  assert.match(d.refused[0]?.reason ?? '', /sending to a number of no country is not enabled/);
});

test('MaxPerSecond gives each accepted message the next slot, after the last one kept', () => {
  const d = applyPolicy(
    { prepaid: false, maxPerSecond: 3, countries: ['GB'] },
    state({ nextSlot: NOW + 100 }),
    [item(), item({ country: 'US' }), item(), item()],
    { now: NOW, dueAt: NOW },
  );
  assert.deepEqual(
    [...(d.dueAts ?? new Map()).entries()],
    [
      [0, NOW + 100],
      [2, NOW + 434],
      [3, NOW + 767],
    ],
  );
  assert.equal(Math.round(d.nextSlot), NOW + 1100);
});

test('days are UTC days', () => {
  assert.equal(dayText(utcDay(Date.UTC(2026, 10, 28, 23, 59, 59))), '2026-11-28');
  assert.equal(dayText(utcDay(Date.UTC(2026, 10, 29))), '2026-11-29');
});
