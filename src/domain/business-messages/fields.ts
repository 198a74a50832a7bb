/**
 * Readers for the untrusted JSON of a SendMessage Content. Every refusal names the full path of
 * the field at fault, because the client only sees the message.
 */
import { invalid, missing } from '../errors.js';

export type JsonObject = Record<string, unknown>;

/**
 * null and "" count as "not set": clients that serialise every field of a struct (Go without
 * omitempty, generated SDKs, form builders) send them for fields they never filled in.
 */
export function isAbsent(value: unknown): value is null | undefined | '' {
  return value === undefined || value === null || value === '';
}

export function isPlainObject(value: unknown): value is JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function isOneOf<T extends string>(value: unknown, options: readonly T[]): value is T {
  return options.some((o) => o === value);
}

/** "must be text" or "must be one of text, image or video". */
export function mustBeOneOf(options: readonly string[]): string {
  if (options.length === 1) return `must be ${options[0]}`;
  return `must be one of ${options.slice(0, -1).join(', ')} or ${options[options.length - 1]}`;
}

/** Code points, as the limits are meant for people, not for UTF-16 code units. */
export function codePointLength(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}

const IDENTIFIER = /^[A-Za-z_$][\w$]{0,63}$/;

/** A client's own key is quoted when odd, so it cannot forge or garble the error message. */
export function fieldPath(base: string, key: string): string {
  if (IDENTIFIER.test(key)) return `${base}.${key}`;
  const shown = codePointLength(key) > 64 ? `${Array.from(key).slice(0, 64).join('')}…` : key;
  return `${base}[${JSON.stringify(shown)}]`;
}

/**
 * Refuses fields the object may not carry, so a client's typo ("captoin") is reported instead of
 * silently dropped. Fields that are absent (null or "") are tolerated for the same reason
 * isAbsent exists.
 */
export function refuseUnknownFields(
  obj: JsonObject,
  allowed: readonly string[],
  base: string,
  context: string,
): void {
  const unknown = Object.keys(obj).filter((key) => !allowed.includes(key) && !isAbsent(obj[key]));
  if (unknown.length === 0) return;
  const named = unknown.slice(0, 5).map((key) => fieldPath(base, key));
  const more = unknown.length > 5 ? ` (and ${unknown.length - 5} more)` : '';
  const verb = unknown.length === 1 ? 'is' : 'are';
  throw invalid(named.join(', '), `${verb} not allowed ${context}${more}`);
}

export function requiredObject(value: unknown, path: string): JsonObject {
  if (isAbsent(value)) throw missing(path);
  if (!isPlainObject(value)) throw invalid(path, 'must be an object');
  return value;
}

export function optionalArray(value: unknown, path: string): unknown[] | undefined {
  if (isAbsent(value)) return undefined;
  if (!Array.isArray(value)) throw invalid(path, 'must be an array');
  const list: unknown[] = value;
  return list;
}

// JSON may carry "\ud800" escapes; a lone surrogate cannot be encoded as UTF-8 for the channel.
const LONE_SURROGATE = /\p{Cs}/u;

function checkedString(value: unknown, path: string, max: number): string {
  if (typeof value !== 'string') throw invalid(path, 'must be a string');
  if (LONE_SURROGATE.test(value)) throw invalid(path, 'is not well-formed Unicode');
  const length = codePointLength(value);
  if (length > max) throw invalid(path, `must be at most ${max} characters (got ${length})`);
  return value;
}

/** A required string that is blank says nothing either, so it is refused like a missing one. */
export function requiredString(obj: JsonObject, key: string, base: string, max: number): string {
  const path = `${base}.${key}`;
  const value = obj[key];
  if (isAbsent(value)) throw missing(path);
  const text = checkedString(value, path, max);
  if (text.trim() === '') throw invalid(path, 'must not be blank');
  return text;
}

export function optionalString(
  obj: JsonObject,
  key: string,
  base: string,
  max: number,
): string | undefined {
  const value = obj[key];
  return isAbsent(value) ? undefined : checkedString(value, `${base}.${key}`, max);
}

export function requiredOneOf<T extends string>(
  obj: JsonObject,
  key: string,
  base: string,
  options: readonly T[],
): T {
  const path = `${base}.${key}`;
  const value = obj[key];
  if (isAbsent(value)) throw missing(path);
  if (!isOneOf(value, options)) throw invalid(path, mustBeOneOf(options));
  return value;
}
