import type { TSchema } from '@sinclair/typebox';
import { NAMED_VIEWS } from '../answer-schemas.js';

export type Json = Record<string, unknown>;

/**
 * A TypeBox schema as plain JSON Schema for the document: TypeBox's own marks are symbols, which
 * JSON drops; a view the document names (NAMED_VIEWS) becomes a `$ref` to its component, so a
 * generator makes one type of it, not one per place it appears.
 */
export function jsonSchema(schema: TSchema, refs: Set<string>, top?: string): Json {
  // A TypeBox schema is JSON Schema: an object once serialised.
  const plain = JSON.parse(JSON.stringify(schema)) as Json;
  return withRefs(plain, refs, top);
}

const NAMED = new Map(
  Object.entries(NAMED_VIEWS).map(([name, s]) => [JSON.stringify(s), name] as const),
);

function withRefs(node: Json, refs: Set<string>, top: string | undefined): Json {
  const name = NAMED.get(JSON.stringify(node));
  if (name !== undefined && name !== top) {
    refs.add(name);
    return { $ref: `#/components/schemas/${name}` };
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = convert(value, refs, top);
  }
  return out;
}

function convert(value: unknown, refs: Set<string>, top: string | undefined): unknown {
  if (Array.isArray(value)) return value.map((v) => convert(v, refs, top));
  // A non-array object inside a JSON Schema is itself JSON.
  if (value !== null && typeof value === 'object') return withRefs(value as Json, refs, top);
  return value;
}

/** The named views a document refers to, each as a component (they may refer to each other). */
export function namedComponents(refs: Set<string>): Record<string, Json> {
  const out: Record<string, Json> = {};
  const queue = [...refs];
  while (queue.length > 0) {
    // The loop runs while the queue is not empty.
    const name = queue.pop() as string;
    if (out[name]) continue;
    const more = new Set<string>();
    // refs holds only the names NAMED_VIEWS declares.
    out[name] = jsonSchema(NAMED_VIEWS[name] as TSchema, more, name);
    queue.push(...more);
  }
  return out;
}
