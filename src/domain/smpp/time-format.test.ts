import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readSmppTime, relativeSmppTime } from './time-format.js';

const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

test('absolute times: local time, tenths, and the offset in quarter hours (SMPP 3.4, 7.1.1.1)', () => {
  // 2026-11-28 14:30:15.3 at UTC+2 (8 quarter hours) is 12:30:15.3 UTC.
  assert.deepEqual(readSmppTime('261128143015308+', NOW), {
    kind: 'at',
    ms: Date.UTC(2026, 10, 28, 12, 30, 15, 300),
  });
  // 07:00 at UTC-5 (20 quarters) is 12:00 UTC.
  assert.deepEqual(readSmppTime('261128070000020-', NOW), { kind: 'at', ms: NOW });
  assert.deepEqual(readSmppTime('261128120000000+', NOW), { kind: 'at', ms: NOW });
});

test('relative times count from now: ten minutes, two days and ten minutes, a year and a month', () => {
  // The reference's example: 000000001000000R is ten minutes from now.
  assert.deepEqual(readSmppTime('000000001000000R', NOW), { kind: 'at', ms: NOW + 10 * 60_000 });
  const two = readSmppTime('000002001000000R', NOW);
  assert.deepEqual(two, { kind: 'at', ms: NOW + (2 * 24 * 60 + 10) * 60_000 });
  assert.deepEqual(readSmppTime('010100000000000R', NOW), {
    kind: 'at',
    ms: Date.UTC(2027, 11, 28, 12, 0, 0),
  });
});

test('empty is absent; anything else off the format is refused with why', () => {
  assert.deepEqual(readSmppTime('', NOW), { kind: 'absent' });
  for (const bad of [
    '2611281430153',
    '261128143015308*',
    '261128143015349+',
    '261131120000000+',
    '261128250000000+',
  ]) {
    const read = readSmppTime(bad, NOW);
    assert.equal(read.kind, 'invalid', bad);
  }
});

test('what is left of a validity goes out relative, whole seconds up, and reads back', () => {
  assert.equal(relativeSmppTime(600_000), '000000001000000R');
  assert.equal(relativeSmppTime(599_001), '000000001000000R');
  assert.equal(relativeSmppTime((2 * 86_400 + 3 * 3600 + 4 * 60 + 5) * 1000), '000002030405000R');
  assert.equal(relativeSmppTime(0), '000000000001000R', 'never zero: the SMSC would take none');
  assert.deepEqual(readSmppTime(relativeSmppTime(90_000), NOW), { kind: 'at', ms: NOW + 90_000 });
});
