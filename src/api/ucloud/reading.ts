import { WirebirdError, invalid } from '../../domain/errors.js';

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
