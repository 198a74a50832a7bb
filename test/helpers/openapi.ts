import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { openApiDocument } from '../../src/api/openapi/document.js';
import { eventSchemaName } from '../../src/api/openapi/event-schemas.js';

/**
 * The published document's schemas, compiled by Ajv (a JSON Schema 2020-12 validator nobody here
 * wrote): the tests hold every answer and every webhook event to what docs/openapi.json says.
 */
const document = openApiDocument() as { components: { schemas: Record<string, unknown> } };
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: false });
ajv.addSchema({ $id: 'wirebird', components: document.components }, 'wirebird');

const compiled = new Map<string, ValidateFunction | undefined>();

function schema(name: string): ValidateFunction | undefined {
  if (!compiled.has(name)) {
    const known = name in document.components.schemas;
    compiled.set(name, known ? ajv.getSchema(`wirebird#/components/schemas/${name}`) : undefined);
  }
  return compiled.get(name);
}

/** Why `value` is not a `name` as the document has it; undefined when it is (or no such schema). */
export function mismatch(name: string, value: unknown): string | undefined {
  const validate = schema(name);
  if (!validate || validate(value)) return undefined;
  return `${name}: ${ajv.errorsText(validate.errors)} in ${JSON.stringify(value).slice(0, 400)}`;
}

/**
 * Checks an answer of POST /api: a success against its Action's Response schema, a refusal
 * against ErrorResponse. Throws naming what differs.
 */
export function checkApiAnswer(answer: Record<string, unknown>): void {
  const action = typeof answer.Action === 'string' ? answer.Action : '';
  const name = answer.RetCode === 0 ? action : 'ErrorResponse';
  const problem = mismatch(name, answer);
  if (problem) throw new Error(`the answer is not what docs/openapi.json says: ${problem}`);
}

/** Checks a webhook body against its event type's schema; answers what differs, if anything. */
export function eventMismatch(body: { type?: unknown }): string | undefined {
  const type = typeof body.type === 'string' ? body.type : '';
  const name = eventSchemaName(type);
  if (!(name in document.components.schemas)) return `no event type ${type} in docs/openapi.json`;
  return mismatch(name, body);
}
