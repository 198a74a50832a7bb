/**
 * What a Graph API answer means for the message: sent, worth retrying, or refused for good.
 * Meta says to branch on error.code (the titles inside message are being deprecated).
 */

/** A failed Graph API call, classified; `code` is Meta's error code (or the HTTP status). */
export class GraphFailure extends Error {
  constructor(
    readonly retryable: boolean,
    readonly code: string,
    readonly desc: string,
    readonly retryAfterMs?: number,
  ) {
    super(desc);
  }
}

/**
 * Codes Meta documents as passing later even though they come with a 4xx: throughput (130429),
 * app and account call rates (4, 80007), the pair rate (131056), and its own outages answered
 * as 400 in some regions (1, 2, 131000, 131016, 131057).
 */
const RETRYABLE_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056, 131057]);

interface GraphErrorBody {
  error?: {
    message?: unknown;
    code?: unknown;
    error_subcode?: unknown;
    error_data?: { details?: unknown };
  };
}

/** The Retry-After header in milliseconds, when the answer has a usable one. */
export function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined || !/^\d{1,6}$/.test(value.trim())) return undefined;
  return Number(value) * 1000;
}

/** Classifies an HTTP answer that was not a success. */
export function graphFailure(status: number, body: unknown, retryAfter?: number): GraphFailure {
  // Graph's error body; each field read is checked before it is used.
  const error = (body as GraphErrorBody | undefined)?.error;
  const code = typeof error?.code === 'number' ? error.code : undefined;
  const message = typeof error?.message === 'string' ? error.message : `HTTP ${status}`;
  const details = typeof error?.error_data?.details === 'string' ? error.error_data.details : '';
  const desc = details && !message.includes(details) ? `${message}: ${details}` : message;
  const retryable =
    status === 429 || status >= 500 || (code !== undefined && RETRYABLE_CODES.has(code));
  return new GraphFailure(retryable, String(code ?? status), desc.slice(0, 500), retryAfter);
}

/** A request that got no answer (refused, reset, timed out): the message may or may not be sent. */
export function transportFailure(err: unknown, timedOut = isTimeout(err)): GraphFailure {
  const desc = timedOut
    ? 'the Graph API did not answer in time'
    : `the Graph API could not be reached (${err instanceof Error ? err.message : String(err)})`;
  return new GraphFailure(true, timedOut ? 'TIMEOUT' : 'NETWORK', desc);
}

function isTimeout(err: unknown): boolean {
  const name = err instanceof Error ? err.name : '';
  return name === 'TimeoutError' || name === 'AbortError';
}
