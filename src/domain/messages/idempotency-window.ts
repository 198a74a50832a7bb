/**
 * How long an Idempotency-Key answers with its first answer (docs/api.md): 24 hours. A record
 * created at `createdAt` is in its window at `now` while createdAt >= windowStart(now), the edge
 * included. The API and both stores ask this module, so the rule cannot drift between them.
 */
import { WirebirdError } from '../errors.js';
import type { IdempotencyRecord } from './message.js';

export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

/** The earliest creation time of a record still in its window at `now`. */
export function idempotencyWindowStart(now: number): number {
  return now - IDEMPOTENCY_WINDOW_MS;
}

/** The first answer to a key, or a conflict when the key came with another request. */
export function replay(requestHash: string, seen: IdempotencyRecord): Record<string, unknown> {
  if (seen.requestHash !== requestHash) {
    throw new WirebirdError(
      'StateConflict',
      'Idempotency-Key was already used within 24 hours for a different request',
    );
  }
  // The stored answer is the JSON object a node wrote for the first request.
  return JSON.parse(seen.response) as Record<string, unknown>;
}
