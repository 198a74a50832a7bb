import assert from 'node:assert/strict';
import { test } from 'node:test';
import { applyReport } from './apply-report.js';

const AT = 1_795_000_000_500;
const delivered = { status: 'delivered', code: 'DELIVRD', desc: 'ok' } as const;
const undeliverable = { status: 'failed', code: 'UNDELIV', desc: 'no' } as const;

test('the first final report makes the receipt, timed in whole seconds', () => {
  assert.deepEqual(applyReport({ status: 'sent', state: 'submitted' }, delivered, { at: AT }), {
    status: 'delivered',
    receipt: { result: 'Success', code: 'DELIVRD', desc: 'ok', time: 1_795_000_000 },
  });
});

test('a later final report moves the status only; the receipt stays the first', () => {
  const after = applyReport({ status: 'delivered', state: 'final' }, undeliverable, { at: AT });
  assert.deepEqual(after, { status: 'delivered' });
  const read = applyReport(
    { status: 'delivered', state: 'final' },
    { ...delivered, status: 'read' },
    {
      at: AT,
    },
  );
  assert.deepEqual(read, { status: 'read' });
});

test('a part that does not complete its message leaves it sent, with no receipt', () => {
  assert.deepEqual(applyReport({ status: 'accepted', state: 'submitted' }, undefined, { at: AT }), {
    status: 'sent',
  });
});

test('a report that is not final makes no receipt', () => {
  const enroute = { status: 'sent', code: 'ENROUTE', desc: '' } as const;
  assert.deepEqual(applyReport({ status: 'accepted', state: 'submitted' }, enroute, { at: AT }), {
    status: 'sent',
  });
});
