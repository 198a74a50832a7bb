import { html, type Html } from './html.js';

export interface Series {
  label: string;
  /** A CSS class giving the line its colour. */
  cls: string;
  points: readonly { at: number; value: number | undefined }[];
}

const W = 600;
const H = 160;
const PAD = 28;
/** Room left of the y axis for its labels: "100%" or "12,345/s" must not be clipped. */
const LEFT = 64;

/**
 * A line chart as inline SVG: no script and no library, so it renders offline and in any
 * browser. Gaps (undefined values) break the line rather than pretend to be zero.
 */
export function lineChart(
  title: string,
  series: readonly Series[],
  axes: {
    range: { from: number; to: number };
    /** The top of the y axis; the highest value (at least 1) when undefined. */
    yMax: number | undefined;
    format: (v: number) => string;
  },
): Html {
  const { range, yMax, format } = axes;
  const values = series.flatMap((s) =>
    s.points.flatMap((p) => (p.value === undefined ? [] : [p.value])),
  );
  const top = yMax ?? Math.max(1, ...values);
  const x = (at: number) =>
    LEFT + ((at - range.from) / Math.max(1, range.to - range.from)) * (W - LEFT - PAD);
  const y = (v: number) => H - PAD - (v / top) * (H - 2 * PAD);
  const lines = series.map((s) => {
    const runs: string[][] = [[]];
    for (const p of s.points) {
      if (p.value === undefined) runs.push([]);
      else runs[runs.length - 1]?.push(`${x(p.at).toFixed(1)},${y(p.value).toFixed(1)}`);
    }
    // A run of one point (receipts in one interval between quiet ones) has no length as a line:
    // it is drawn as a dot, or the chart would look empty while the figures come in.
    return runs
      .filter((r) => r.length > 0)
      .map((r) => {
        if (r.length > 1) return html`<polyline class="${s.cls}" points="${r.join(' ')}" />`;
        const [cx, cy] = (r[0] ?? '0,0').split(',');
        return html`<circle class="${s.cls}" cx="${cx}" cy="${cy}" r="3" />`;
      });
  });
  const legend = series.map((s) => html`<span class="legend ${s.cls}">${s.label}</span>`);
  return html`<figure class="chart">
    <figcaption>${title} ${legend}</figcaption>
    <svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${title}">
      <line class="axis" x1="${LEFT}" y1="${H - PAD}" x2="${W - PAD}" y2="${H - PAD}" />
      <line class="axis" x1="${LEFT}" y1="${PAD}" x2="${LEFT}" y2="${H - PAD}" />
      <text x="${LEFT - 4}" y="${PAD + 4}" text-anchor="end">${format(top)}</text>
      <text x="${LEFT - 4}" y="${H - PAD}" text-anchor="end">0</text>
      <text x="${LEFT}" y="${H - 8}">-60 min</text>
      <text x="${W - PAD}" y="${H - 8}" text-anchor="end">now</text>
      ${lines}
    </svg>
  </figure>`;
}
