/**
 * What the console's forms and queries accept, as TypeBox schemas read by the API's validator
 * (api/validate.ts), the way the API and the admin API read theirs: one schema per form beside its
 * route, and a refusal that names the field (a WirebirdError, which guardedRoute shows as a page).
 */
import { Type, type TOptional, type TString } from '@sinclair/typebox';
import { validator } from '../http/validate.js';
import { invalid } from '../domain/errors.js';

/** One value of a form or query field, at most `max` characters once trimmed. */
export const text = (max = 200): TOptional<TString> =>
  Type.Optional(Type.String({ maxLength: max }));

type Fields = Record<string, TOptional<TString>>;

/** A form as read: every field named by its schema, trimmed, '' when the form left it out. */
export type FormOf<F extends Fields> = { [K in keyof F]: string };

/**
 * The reader of a form or query with `fields`. A field given twice (`?q=a&q=b`) is a mistake
 * and is refused as one; fields the schema does not name pass unread (the CSRF token, which its
 * plugin checks; `account`, which accountOf reads; checkbox groups, which `checkboxReader` reads).
 */
export function formReader<F extends Fields>(fields: F): (raw: unknown) => FormOf<F> {
  const check = validator(Type.Object(fields));
  const names = Object.keys(fields);
  return (raw) => {
    const given = fieldsOf(raw);
    const read: Record<string, unknown> = {};
    for (const name of names) {
      const value = given[name];
      if (Array.isArray(value)) throw invalid(name, 'must be given once');
      read[name] = typeof value === 'string' ? value.trim() : (value ?? '');
    }
    check(read);
    // Checked: every value is a string within its length, which the mapped type says.
    return read as FormOf<F>;
  };
}

/**
 * The reader of a group of checkboxes (each box a field named `name`): none, one or several
 * values, at most 64 of at most 64 characters. Compiled once, like formReader's schemas.
 */
export function checkboxReader(name: string): (raw: unknown) => string[] {
  const check = validator(Type.Object({ [name]: CHECKBOXES }));
  return (raw) => {
    const value = fieldsOf(raw)[name];
    const list: unknown[] = value === undefined ? [] : Array.isArray(value) ? value : [value];
    // check() validated the field as an array of strings.
    return check({ [name]: list })[name] as string[];
  };
}

const CHECKBOXES = Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 });

/** Fastify's parsed body or query as fields (an absent body reads as no fields). */
function fieldsOf(raw: unknown): Record<string, unknown> {
  // Checked to be a non-null object: a field bag.
  return (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
}
