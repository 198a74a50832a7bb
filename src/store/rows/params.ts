/**
 * The values of a statement built from optional parts, each written at its place with the
 * dialect's placeholder (`p(n)`: `?` or `$n`); a value used twice is given twice.
 */
export function paramList(p: (n: number) => string) {
  const values: unknown[] = [];
  const param = (v: unknown): string => {
    values.push(v);
    return p(values.length);
  };
  return { values, param };
}
