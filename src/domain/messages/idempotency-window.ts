/**
 * How long an Idempotency-Key answers with its first answer (docs/api.md): 24 hours. A record
 * created at `createdAt` is in its window at `now` while createdAt >= windowStart(now), the edge
 * included. The API and both stores ask this module, so the rule cannot drift between them.
 */
export const IDEMPOTENCY_WINDOW_MS = 24 * 3600 * 1000;

/** The earliest creation time of a record still in its window at `now`. */
export function idempotencyWindowStart(now: number): number {
  return now - IDEMPOTENCY_WINDOW_MS;
}
