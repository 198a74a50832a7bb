import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lineChart } from './svg-chart.js';

test('a lone point between gaps is drawn as a dot, a run of points as a line', () => {
  const range = { from: 0, to: 60_000 };
  const points = [
    { at: 10_000, value: undefined },
    { at: 20_000, value: 1 },
    { at: 30_000, value: undefined },
    { at: 40_000, value: 0.5 },
    { at: 50_000, value: 0.75 },
  ];
  const chart = String(
    lineChart('Delivery rate', [{ label: 'delivered', cls: 'delivered', points }], {
      range,
      yMax: 1,
      format: (v) => `${v}`,
    }),
  );
  assert.equal((chart.match(/<circle class="delivered"/g) ?? []).length, 1);
  assert.equal((chart.match(/<polyline class="delivered" points="[^"]+ [^"]+"/g) ?? []).length, 1);
});
