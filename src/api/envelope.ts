import { WirebirdError, invalid, missing } from '../domain/errors.js';

/** What accountIdOf takes, as the OpenAPI document publishes it. */
export const ACCOUNT_ID_RULE = {
  title: 'AccountId',
  description:
    "The account: the API key's own. A whole number from 1, or the same as a numeric string; also read when spelt accountId.",
  anyOf: [
    { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
    { type: 'string', pattern: '^[0-9]{1,15}$' },
  ],
};

export type Body = Record<string, unknown>;

export function asBody(body: unknown): Body {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new WirebirdError('MalformedRequest', 'the request body must be a JSON object');
  }
  // Checked just above to be a non-array object: a field bag.
  return body as Body;
}

export function actionOf(body: Body): string {
  const action = body.Action;
  if (action === undefined || action === null || action === '') {
    throw new WirebirdError('MissingAction', 'Action is required');
  }
  if (typeof action !== 'string')
    throw new WirebirdError('MissingAction', 'Action must be a string');
  return action;
}

/**
 * AccountId is an int in the spec, but its own examples send numeric strings, and SendMessage's
 * example spells it accountId: all are accepted; two that disagree are refused.
 */
export function accountIdOf(body: Body): number {
  const upper = body.AccountId;
  const lower = body.accountId;
  if (upper === undefined && lower === undefined) throw missing('AccountId');
  const a = upper === undefined ? undefined : parseAccountId(upper, 'AccountId');
  const b = lower === undefined ? undefined : parseAccountId(lower, 'accountId');
  if (a !== undefined && b !== undefined && a !== b) {
    throw invalid('accountId', 'does not match AccountId');
  }
  // parseAccountId answers a number, and one of the two was given (checked by the caller).
  return (a ?? b) as number;
}

function parseAccountId(value: unknown, field: string): number {
  const n =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && /^\d{1,15}$/.test(value)
        ? Number(value)
        : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw invalid(field, 'must be a positive integer');
  return n;
}
