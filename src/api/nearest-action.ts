import { actions } from './actions/index.js';

/** Edits (insert, delete, replace) between two names, compared without case. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let row = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const next = [i];
    for (let j = 1; j <= y.length; j++) {
      const cost = x[i - 1] === y[j - 1] ? 0 : 1;
      // Indexes 0 … y.length of both rows are filled before they are read.
      next[j] = Math.min(
        (row[j] as number) + 1,
        (next[j - 1] as number) + 1,
        (row[j - 1] as number) + cost,
      );
    }
    row = next;
  }
  // Filled by the last pass.
  return row[y.length] as number;
}

/** The refusal of an Action name Wirebird does not know: the nearest one it does, and the list. */
export function unknownActionMessage(name: string): string {
  const known = [...actions.keys()];
  const shown = JSON.stringify(name.slice(0, 80));
  const best = known
    .map((k) => ({ k, d: distance(name.slice(0, 80), k) }))
    .sort((p, q) => p.d - q.d)[0];
  // A suggestion only when it is plausibly what was meant: a few edits, or the same name in
  // another case.
  const near = best && best.d <= Math.max(2, Math.floor(best.k.length / 4)) ? best.k : undefined;
  return (
    `Action ${shown} is not supported` +
    (near ? `; did you mean ${near}?` : '.') +
    ` Supported: ${known.join(', ')}.`
  );
}
