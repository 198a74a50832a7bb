import { test } from 'node:test';
import assert from 'node:assert/strict';
import { statusReports } from './status-notification.js';

const NOW = 1_800_000_000_000;
const wrap = (...statuses: unknown[]) => ({
  entry: [{ changes: [{ field: 'messages', value: { statuses } }] }],
});

test('statuses become reports on the whatsapp route, at their own timestamp', () => {
  const { reports, skipped } = statusReports(
    wrap(
      { id: 'wamid.A', status: 'sent', timestamp: '1790000000' },
      { id: 'wamid.A', status: 'played', timestamp: 1790000009 },
    ),
    NOW,
  );
  assert.equal(skipped, 0);
  assert.deepEqual(reports, [
    {
      route: 'whatsapp',
      upstream: '',
      upstreamId: 'wamid.A',
      status: 'sent',
      code: 'SENT',
      desc: 'sent to WhatsApp',
      at: 1790000000000,
    },
    // A voice message played has been heard: it ranks as read.
    {
      route: 'whatsapp',
      upstream: '',
      upstreamId: 'wamid.A',
      status: 'read',
      code: 'PLAYED',
      desc: 'played by the recipient',
      at: 1790000009000,
    },
  ]);
});

test('a failed status carries the first error: its code, title and details', () => {
  const { reports } = statusReports(
    wrap({
      id: 'wamid.B',
      status: 'failed',
      timestamp: '1790000000',
      errors: [
        {
          code: 131047,
          title: 'Re-engagement message',
          error_data: { details: 'More than 24 hours' },
        },
      ],
    }),
    NOW,
  );
  assert.equal(reports[0]?.code, '131047');
  assert.equal(reports[0].desc, 'Re-engagement message: More than 24 hours');
});

test('statuses without an id or with a status we do not know are skipped and counted', () => {
  const { reports, skipped } = statusReports(
    wrap({ status: 'read', timestamp: '1' }, { id: 'wamid.C', status: 'deleted' }, 'junk', null),
    NOW,
  );
  assert.deepEqual(reports, []);
  assert.equal(skipped, 4);
});

test('a missing or malformed timestamp reads as now; other shapes of body give nothing', () => {
  const { reports } = statusReports(
    wrap({ id: 'wamid.D', status: 'delivered', timestamp: 'soon' }),
    NOW,
  );
  assert.equal(reports[0]?.at, NOW);
  for (const body of [null, 'text', [], { entry: 'x' }, { entry: [{ changes: [{}] }] }]) {
    assert.deepEqual(statusReports(body, NOW), { reports: [], skipped: 0 });
  }
});
