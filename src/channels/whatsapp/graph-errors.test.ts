import { test } from 'node:test';
import assert from 'node:assert/strict';
import { graphFailure, retryAfterMs } from './graph-errors.js';

const body = (code: number, message = `(#${code}) x`) => ({ error: { message, code } });

test('429, 5xx and the throughput and outage codes are retryable; other 4xx are final', () => {
  const cases: [number, unknown, boolean][] = [
    [429, body(4), true],
    [500, body(131000), true],
    [503, 'not json', true],
    [400, body(130429), true],
    [400, body(131056), true],
    [400, body(131047), false],
    [400, body(131026), false],
    [401, body(190), false],
    [404, body(132001), false],
    [400, undefined, false],
  ];
  for (const [status, answer, retryable] of cases) {
    assert.equal(
      graphFailure(status, answer).retryable,
      retryable,
      `${status} ${JSON.stringify(answer)}`,
    );
  }
});

test("the code is Meta's (or the HTTP status), the description its message with the details", () => {
  const f = graphFailure(400, {
    error: {
      message: '(#131026) Message undeliverable',
      code: 131026,
      error_data: { details: 'not on WhatsApp' },
    },
  });
  assert.equal(f.code, '131026');
  assert.equal(f.desc, '(#131026) Message undeliverable: not on WhatsApp');
  assert.equal(graphFailure(502, '<html>').code, '502');
  assert.equal(graphFailure(502, '<html>').desc, 'HTTP 502');
});

test('Retry-After in seconds is honoured; dates and junk are ignored', () => {
  assert.equal(retryAfterMs('3'), 3000);
  assert.equal(retryAfterMs(['7']), 7000);
  assert.equal(retryAfterMs('Wed, 21 Oct 2015 07:28:00 GMT'), undefined);
  assert.equal(retryAfterMs(undefined), undefined);
});
