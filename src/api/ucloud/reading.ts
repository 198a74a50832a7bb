import type { TSchema } from '@sinclair/typebox';
import { WirebirdError, invalid } from '../../domain/errors.js';
import { fieldsOf } from '../../util/unknown-values.js';

/**
 * What the SDKs send with every call beside an Action's own parameters (Region and ProjectId
 * from their configuration, Zone from some), and the envelope's account.
 */
const DIALECT_PARAMS = new Set(['Action', 'AccountId', 'accountId', 'Region', 'Zone', 'ProjectId']);

/** The top-level fields a request schema names (each branch of a union). */
function schemaFields(schema: TSchema): string[] {
  // A TypeBox union's anyOf holds TypeBox schemas.
  const branches = Array.isArray(schema.anyOf) ? (schema.anyOf as TSchema[]) : [schema];
  return branches.flatMap((b) => Object.keys(fieldsOf(b.properties)));
}

/**
 * A signature covers the string of names and values joined without separators, so moving the
 * boundary between a name and its value (ProjectIdp=1 for ProjectId=p1) keeps it valid: refusing
 * every parameter the Action does not take closes that door (docs/ucloud-sdk.md).
 */
export function refuseUnknownParameters(
  action: string,
  body: Record<string, unknown>,
  request: TSchema,
): void {
  const own = schemaFields(request);
  const unknown = Object.keys(body).find(
    (name) => !DIALECT_PARAMS.has(name) && !own.includes(name),
  );
  if (unknown === undefined) return;
  throw invalid(
    unknown.slice(0, 80),
    `is not a parameter of ${action}; in the UCloud dialect an Action takes only its own parameters (${own.join(', ')}) besides ${[...DIALECT_PARAMS].join(', ')}`,
  );
}

/**
 * What the dialect spells otherwise than the JSON API, rewritten into the JSON API's form:
 * SendBatchUSMSMessage's TaskContent is base64 of a JSON array whose groups name their sender
 * SigContent (the spec's SenderId).
 */
export function readingOf(body: Record<string, unknown>): Record<string, unknown> {
  if (body.Action !== 'SendBatchUSMSMessage' || typeof body.TaskContent !== 'string') return body;
  return { ...body, TaskContent: taskContentOf(body.TaskContent) };
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function taskContentOf(encoded: string): unknown {
  const compact = encoded.replace(/\s+/g, '');
  if (compact === '' || !BASE64.test(compact) || compact.length % 4 === 1) {
    throw invalid('TaskContent', 'must be base64 of a JSON array of groups (the UCloud SDK form)');
  }
  let groups: unknown;
  try {
    groups = JSON.parse(Buffer.from(compact, 'base64').toString('utf8'));
  } catch {
    throw invalid('TaskContent', 'is base64, but what it holds is not JSON');
  }
  if (!Array.isArray(groups)) {
    throw new WirebirdError('InvalidParameter', 'TaskContent must hold a JSON array of groups');
  }
  return groups.map((g: unknown) => {
    if (typeof g !== 'object' || g === null || Array.isArray(g)) return g;
    // Checked just above to be a non-array object: a field bag.
    const { SigContent, ...rest } = g as Record<string, unknown>;
    // SigContent is the dialect's name for the group's SenderId; an explicit SenderId wins.
    return SigContent === undefined || rest.SenderId !== undefined
      ? { ...rest }
      : { ...rest, SenderId: SigContent };
  });
}
