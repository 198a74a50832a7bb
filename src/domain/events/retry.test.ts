import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ClaimedDelivery } from './endpoint.js';
import {
  DEFAULT_RETRY_SCHEDULE,
  deliveryResult,
  nextAttemptAt,
  parseRetrySchedule,
  retryAfterMs,
} from './retry.js';

const S = 1000;
const M = 60 * S;
const H = 60 * M;

test('the default schedule is Standard Webhooks’ 5s, 5m, 30m, 2h, 5h, 10h, 10h', () => {
  assert.deepEqual(parseRetrySchedule(DEFAULT_RETRY_SCHEDULE), [
    5 * S,
    5 * M,
    30 * M,
    2 * H,
    5 * H,
    10 * H,
    10 * H,
  ]);
  assert.deepEqual(parseRetrySchedule('500ms, 1d'), [500, 24 * H]);
  assert.throws(() => parseRetrySchedule('5s,soon'), /"soon" is not a duration/);
  assert.throws(() => parseRetrySchedule(''), /not a duration/);
});

test('each wait is the schedule’s, spread by at most 10 %; past its end, none', () => {
  const scheduleMs = [5 * S, 5 * M];
  const at = (attempts: number, random: number) =>
    nextAttemptAt({ attempts, scheduleMs, now: 0, random: () => random });
  assert.equal(at(1, 0), 4500);
  assert.equal(at(1, 0.5), 5000);
  assert.equal(at(1, 0.999999), 5500);
  assert.equal(at(2, 0.5), 5 * M);
  assert.equal(at(3, 0.5), undefined);
});

test('Retry-After replaces the wait: seconds or an HTTP date, capped at a day', () => {
  assert.equal(retryAfterMs('120', 0), 120 * S);
  assert.equal(retryAfterMs('Thu, 01 Jan 1970 00:01:00 GMT', 0), M);
  assert.equal(retryAfterMs('later', 0), undefined);
  assert.equal(retryAfterMs(undefined, 0), undefined);
  const next = (retryAfter: number) =>
    nextAttemptAt({
      attempts: 1,
      scheduleMs: [5 * S],
      now: 0,
      random: () => 0,
      retryAfterMs: retryAfter,
    });
  assert.equal(next(30 * S), 30 * S);
  assert.equal(next(30 * 24 * H), 24 * H);
});

const claimed: ClaimedDelivery = {
  eventId: 7,
  endpointId: 'we_1',
  claim: 1,
  attempt: 1,
  type: 'message.receipt',
  body: '{}',
};
const answer = (statusCode: number | undefined, retryAfter?: string) => ({
  statusCode,
  error: '',
  latencyMs: 2,
  retryAfter,
});
const policy = { scheduleMs: [5 * S], now: 1000, random: () => 0.5 };

test('2xx delivers, 410 disables, 429 and 503 honour Retry-After, others keep the schedule', () => {
  assert.equal(deliveryResult(claimed, answer(204), policy).state, 'delivered');
  const gone = deliveryResult(claimed, answer(410), policy);
  assert.deepEqual([gone.state, gone.disable], ['failed', 'the endpoint answered 410 Gone']);
  assert.equal(deliveryResult(claimed, answer(429, '60'), policy).nextAt, 1000 + 60 * S);
  assert.equal(deliveryResult(claimed, answer(503, '60'), policy).nextAt, 1000 + 60 * S);
  assert.equal(deliveryResult(claimed, answer(500, '60'), policy).nextAt, 1000 + 5 * S);
  assert.equal(deliveryResult(claimed, answer(undefined), policy).state, 'pending');
  const last = deliveryResult({ ...claimed, attempt: 2 }, answer(500), policy);
  assert.deepEqual([last.state, last.nextAt], ['failed', undefined]);
});
