import { fieldsOf } from '../../util/unknown-values.js';
/** The names of the fields a request set: what an update changed, for the audit log. */
export function definedFields(input: object, names: readonly string[]): string[] {
  const fields = fieldsOf(input);
  return names.filter((n) => fields[n] !== undefined);
}

/** The phones a change was to: the number itself, or how many (never a thousand of them). */
export function phonesTarget(phones: readonly string[]): string {
  // Of length 1, so its first is there.
  return phones.length === 1 ? (phones[0] as string) : `${phones.length} numbers`;
}
