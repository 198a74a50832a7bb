import { RetCode, type RetCodeName, type RetCodeValue } from '../domain/errors.js';

/**
 * The HTTP status of every refusal, in one table (docs/errors.md). Two policies share it:
 * - `action`: POST /api and the media upload. What an Action decides is HTTP 200 with its
 *   RetCode; only who is calling (401, 403, 429) and a fault of ours (500) change the status.
 *   Problems with the request as a whole (bad JSON, too large) keep the 4xx Fastify found.
 * - `rest`: the admin API and the console, which answer as REST services do: every refusal has a
 *   4xx of its own.
 */
export type StatusPolicy = 'action' | 'rest';

const WHO_AND_FAULT: Partial<Record<RetCodeName, number>> = {
  Unauthenticated: 401,
  PermissionDenied: 403,
  OutOfScope: 403,
  RateLimited: 429,
  Internal: 500,
};

const REST: Partial<Record<RetCodeName, number>> = {
  ...WHO_AND_FAULT,
  MalformedRequest: 400,
  MissingParameter: 400,
  InvalidParameter: 400,
  NotFound: 404,
  StateConflict: 409,
  LimitExceeded: 413,
};

const NAMES = new Map<RetCodeValue, RetCodeName>(
  // Object.entries widens a const object's keys to string; these are RetCode's own.
  (Object.entries(RetCode) as [RetCodeName, RetCodeValue][]).map(([name, code]) => [code, name]),
);

export function httpStatusOf(code: RetCodeValue, policy: StatusPolicy = 'action'): number {
  const name = NAMES.get(code);
  const table = policy === 'rest' ? REST : WHO_AND_FAULT;
  const fallback = policy === 'rest' ? 400 : 200;
  return (name && table[name]) ?? fallback;
}
