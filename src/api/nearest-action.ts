import { actions } from './actions/index.js';
import { DOCS_PATH } from '../http/paths.js';

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

/** The first word of a CamelCase name, lower-cased: "Send" of SendSms. */
const firstWord = (name: string): string => (/^[A-Z]?[a-z]+/.exec(name)?.[0] ?? '').toLowerCase();

/**
 * What was plausibly meant: the one name a few edits away (or the same in another case); else
 * up to three of the names that begin with the same verb, nearest first (SendSms: the Send
 * Actions).
 */
function nearest(name: string, known: readonly string[]): string[] {
  const ranked = known.map((k) => ({ k, d: distance(name, k) })).sort((p, q) => p.d - q.d);
  const best = ranked[0];
  if (best && best.d <= Math.max(2, Math.floor(best.k.length / 4))) return [best.k];
  const verb = firstWord(name);
  if (verb === '') return [];
  return ranked
    .filter((r) => firstWord(r.k) === verb)
    .map((r) => r.k)
    .slice(0, 3);
}

const oneOf = (names: readonly string[]): string =>
  names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;

/**
 * The refusal of an Action name Wirebird does not know: the nearest ones it does, and where all
 * of them are described. A list of every Action would bury the one name that matters.
 */
export function unknownActionMessage(name: string): string {
  const known = [...actions.keys()];
  const shown = JSON.stringify(name.slice(0, 80));
  const near = nearest(name.slice(0, 80), known);
  return (
    `Action ${shown} is not supported` +
    (near.length > 0 ? `; did you mean ${oneOf(near)}?` : '.') +
    ` All ${known.length} Actions: docs/api.md, or ${DOCS_PATH} on this gateway.`
  );
}
