import type { Static, TSchema } from '@sinclair/typebox';
import { TypeCompiler, type TypeCheck } from '@sinclair/typebox/compiler';
import { ValueErrorType, type ValueError } from '@sinclair/typebox/errors';
import { WirebirdError, invalid, missing } from '../domain/errors.js';

export interface Validator<S extends TSchema> {
  (value: unknown): Static<S>;
}

/** Compiles a schema into a function that returns typed input or throws naming the field. */
export function validator<S extends TSchema>(schema: S): Validator<S> {
  const check: TypeCheck<S> = TypeCompiler.Compile(schema);
  return (value) => {
    if (check.Check(value)) return value;
    const first = check.Errors(value).First();
    throw first ? toError(first) : new WirebirdError('InvalidParameter', 'invalid request');
  };
}

/** `/TaskContent/0/Target/1/Phone` → `TaskContent[0].Target[1].Phone` */
export function fieldPath(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((acc, p) => (/^\d+$/.test(p) ? `${acc}[${p}]` : acc ? `${acc}.${p}` : p), '');
}

function toError(e: ValueError): WirebirdError {
  const field = fieldPath(e.path) || 'request';
  if (e.type === ValueErrorType.ObjectRequiredProperty) return missing(field);
  // TypeBox's schemas are JSON Schema objects; read here for their limits.
  const s = e.schema as Record<string, unknown>;
  return invalid(field, describe(e, s));
}

function describe(e: ValueError, s: Record<string, unknown>): string {
  switch (e.type) {
    case ValueErrorType.StringMaxLength:
      return `must be at most ${String(s.maxLength)} characters`;
    case ValueErrorType.StringMinLength:
      return s.minLength === 1
        ? 'must not be empty'
        : `must be at least ${String(s.minLength)} characters`;
    case ValueErrorType.ArrayMaxItems:
      return `must have at most ${String(s.maxItems)} items`;
    case ValueErrorType.ArrayMinItems:
      return `must have at least ${String(s.minItems)} item${s.minItems === 1 ? '' : 's'}`;
    case ValueErrorType.String:
      return 'must be a string';
    case ValueErrorType.Integer:
      return 'must be an integer';
    case ValueErrorType.Array:
      return 'must be an array';
    case ValueErrorType.Object:
      return 'must be an object';
    case ValueErrorType.Boolean:
      return 'must be a boolean';
    case ValueErrorType.ObjectAdditionalProperties:
      return 'is not a field of this object';
    default:
      return typeof s.description === 'string'
        ? `must be ${s.description}`
        : e.message.toLowerCase();
  }
}
