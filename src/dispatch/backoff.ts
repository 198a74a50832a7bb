/** The one place the retry delay is decided: exponential from 1 s, capped at 5 min, half jitter. */
export const RETRY_BASE_MS = 1000;
export const RETRY_MAX_MS = 5 * 60 * 1000;

export function retryDelayMs(attempt: number, random: () => number, floorMs = 0): number {
  const base = Math.min(RETRY_MAX_MS, RETRY_BASE_MS * 2 ** Math.max(0, attempt - 1));
  // Half jitter: retries of a batch that failed together spread out instead of returning as one.
  const delay = base / 2 + (random() * base) / 2;
  return Math.max(floorMs, Math.round(delay));
}
