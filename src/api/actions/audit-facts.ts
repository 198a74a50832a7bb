/** The names of the fields a request set: what an update changed, for the audit log. */
export function definedFields(input: object, names: readonly string[]): string[] {
  const fields = input as Record<string, unknown>;
  return names.filter((n) => fields[n] !== undefined);
}

/** The phones a change was to: the number itself, or how many (never a thousand of them). */
export function phonesTarget(phones: readonly string[]): string {
  return phones.length === 1 ? (phones[0] as string) : `${phones.length} numbers`;
}
