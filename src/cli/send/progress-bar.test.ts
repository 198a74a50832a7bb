import assert from 'node:assert/strict';
import { it } from 'node:test';
import { ProgressBar, formatSeconds } from './progress-bar.js';

function sink(isTTY: boolean) {
  const lines: string[] = [];
  const out = { isTTY, write: (s: string) => lines.push(s) } as unknown as NodeJS.WriteStream;
  return { out, lines };
}

it('shows rows, share, accepted, failed, rate and time left', () => {
  let now = 0;
  const bar = new ProgressBar(10_000, sink(false).out, () => now);
  now = 2000;
  assert.equal(
    bar.line({ rows: 4000, accepted: 3990, failed: 10 }, now),
    '[##########--------------]  4000/10000 (40%)  accepted 3990  failed 10  2000/s  ETA 3s',
  );
});

it('prints a line every 2 s to a log, redraws in place on a terminal, and ends once', () => {
  let now = 0;
  const log = sink(false);
  const bar = new ProgressBar(100, log.out, () => now);
  for (const rows of [10, 20, 30]) {
    now += 1000;
    bar.update({ rows, accepted: rows, failed: 0 });
  }
  bar.update({ rows: 30, accepted: 30, failed: 0 }, true);
  assert.equal(log.lines.length, 2, log.lines.join(''));
  assert.ok(log.lines.every((l) => l.endsWith('\n') && !l.includes('\r')));
  const tty = sink(true);
  const live = new ProgressBar(100, tty.out, () => now);
  now += 1000;
  live.update({ rows: 100, accepted: 99, failed: 1 }, true);
  const drawn = tty.lines[0] ?? '';
  assert.ok(drawn.startsWith('\r[') && drawn.endsWith('\x1b[K\n'), JSON.stringify(drawn));
  assert.ok(drawn.includes(' 100/100 (100%)  accepted 99  failed 1 '), drawn);
});

it('formats time left for people', () => {
  assert.deepEqual(
    [formatSeconds(0.2), formatSeconds(59.5), formatSeconds(125), formatSeconds(7300)],
    ['1s', '60s', '2m5s', '2h1m'],
  );
});
