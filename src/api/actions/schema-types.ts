import { invalid } from '../../domain/errors.js';
import { Type } from '@sinclair/typebox';

/** Integers that clients also send as numeric strings (the spec's own examples do). */
export const IntegerLike = Type.Union([Type.Integer(), Type.String({ pattern: '^-?\\d{1,15}$' })], {
  description: 'an integer',
});

/** An array of strings that a lenient client may also send as one string. */
export const StringList = (options: { minItems: number; maxItems: number }) =>
  Type.Union([Type.String({ minLength: 1 }), Type.Array(Type.String({ minLength: 1 }), options)], {
    description: `an array of 1 to ${options.maxItems} non-empty strings`,
  });

export function toList(value: string | string[]): string[] {
  return typeof value === 'string' ? [value] : value;
}

/** Booleans that the UCloud SDKs send as the strings "true" and "false". */
export const BooleanLike = Type.Union(
  [Type.Boolean(), Type.Literal('true'), Type.Literal('false')],
  {
    description: 'true or false',
  },
);

export function toBoolean(value: boolean | 'true' | 'false' | undefined): boolean | undefined {
  return value === undefined ? undefined : value === true || value === 'true';
}

/** A template's values: strings, or numbers taken as their text; at most 100. */
export const TemplateParams = Type.Array(
  Type.Union([Type.String(), Type.Number()], { description: 'a string' }),
  { maxItems: 100 },
);

/** A page's Limit as the request gave it (a number, or digits), from 1 to `max`. */
export function pageLimit(
  raw: number | string | undefined,
  max: number,
  byDefault: number,
): number {
  if (raw === undefined) return byDefault;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw invalid('Limit', `must be a whole number from 1 to ${max}`);
  }
  return n;
}
