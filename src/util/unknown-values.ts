/**
 * Reading values whose type nobody promised (parsed JSON, a caught error, a driver's row): each
 * helper checks at run time what it answers, so its callers need no cast.
 */

/** A non-null object's own fields, for reading a few of them one by one; anything else has none. */
export function fieldsOf(value: unknown): Readonly<Record<string, unknown>> {
  // Checked just above: any non-null object may be read field by field (each field is unknown).
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** What an error says, whatever was thrown. */
export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Whether `value` is one of `options`, narrowing it to their type. */
export function isOneOf<T>(options: readonly T[], value: unknown): value is T {
  return options.some((o) => o === value);
}

/** An error's `code` (Node's system errors and Fastify's carry one), when it has a string one. */
export function errorCode(err: unknown): string | undefined {
  const code = fieldsOf(err).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A field read as text: a string as it is, a number or boolean written out, anything else
 * (absent, an object) as ''. For fields that should be text but come from outside (a PDU, JSON).
 */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  const written = typeof value === 'number' || typeof value === 'bigint';
  return written || typeof value === 'boolean' ? String(value) : '';
}

/**
 * A value as JSON text, or undefined for what JSON has no form of (undefined, a function, a
 * symbol): JSON.stringify answers undefined for those, which its declared type leaves out.
 */
export function jsonText(value: unknown): string | undefined {
  return JSON.stringify(value);
}
