import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { combineParts, type PartReport } from './parts.js';

const ok = (partNo: number): PartReport => ({
  partNo,
  status: 'delivered',
  code: 'DELIVRD:000',
  desc: 'delivered to the handset',
});

describe('combineParts', () => {
  it('is delivered when every part is', () => {
    const r = combineParts([ok(2), ok(1), ok(3)]);
    assert.equal(r.status, 'delivered');
    assert.equal(r.desc, 'all 3 parts delivered to the handset');
  });
  it('takes the first failing part in part order, whatever order they came in', () => {
    const r = combineParts([
      ok(1),
      { partNo: 3, status: 'failed', code: 'EXPIRED:000', desc: 'expired' },
      { partNo: 2, status: 'failed', code: 'UNDELIV:001', desc: 'undeliverable' },
    ]);
    assert.deepEqual([r.status, r.code], ['failed', 'UNDELIV:001']);
  });
  it('a failure outranks an unknown part; an unknown outranks deliveries', () => {
    const unknown: PartReport = { partNo: 1, status: 'unknown', code: 'UNKNOWN:000', desc: '?' };
    const failed: PartReport = { partNo: 2, status: 'failed', code: 'REJECTD:000', desc: 'x' };
    assert.equal(combineParts([unknown, failed]).status, 'failed');
    assert.equal(combineParts([unknown, ok(2)]).status, 'unknown');
  });
  it('refuses an empty list', () => {
    assert.throws(() => combineParts([]), RangeError);
  });
});
