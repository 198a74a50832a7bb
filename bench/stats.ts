/** The q-th quantile (0..1) by nearest rank over a copy of `values`. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[rank] as number;
}

export const fmt = {
  int: (n: number) => Math.round(n).toLocaleString('en-US'),
  ms: (n: number) => `${n.toFixed(1)} ms`,
  mb: (n: number) => `${n.toFixed(0)} MB`,
  s: (n: number) => `${n.toFixed(2)} s`,
  us: (n: number) => `${n.toFixed(1)} µs`,
};

/** A two-column markdown table. */
export function table(rows: readonly (readonly [string, string])[]): string {
  const lines = ['| measure | value |', '| --- | --- |'];
  for (const [k, v] of rows) lines.push(`| ${k} | ${v} |`);
  return lines.join('\n');
}
