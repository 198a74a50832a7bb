import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { normaliseSmscId, upstreamIdReadings } from './upstream-ids.js';

describe('normaliseSmscId', () => {
  it('trims, lower-cases and strips zero padding', () => {
    assert.equal(normaliseSmscId(' 00000A1B '), 'a1b');
    assert.equal(normaliseSmscId('0042'), '42');
  });
  it('keeps a lone zero and opaque ids', () => {
    assert.equal(normaliseSmscId('0000'), '0');
    assert.equal(normaliseSmscId('msg-0012'), 'msg-0012');
  });
});

describe('upstreamIdReadings', () => {
  it('reads a decimal id as itself, then as hex', () => {
    assert.deepEqual(upstreamIdReadings('4660'), ['4660', '1234', '18016']);
  });
  it('reads a hex id as itself, then as decimal', () => {
    assert.deepEqual(upstreamIdReadings('4d2'), ['4d2', '1234']);
  });
  it('the readings of an answer id and its receipt id meet', () => {
    const answer = 'a1b2c3';
    const receipt = BigInt('0xa1b2c3').toString(10);
    assert.ok(upstreamIdReadings(receipt).includes(answer));
    assert.ok(upstreamIdReadings(answer).includes(receipt));
  });
  it('gives opaque ids one reading', () => {
    assert.deepEqual(upstreamIdReadings('sim-42'), ['sim-42']);
    assert.deepEqual(upstreamIdReadings('wamid.HBgLMTY1'), ['wamid.HBgLMTY1']);
    assert.deepEqual(upstreamIdReadings('9'.repeat(40)), ['9'.repeat(40)]);
  });
});
