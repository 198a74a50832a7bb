import type { ClaimedDelivery, DeliveryResult } from './endpoint.js';

/**
 * When a failed delivery is tried again (docs/events.md): the Standard Webhooks schedule, each
 * wait spread by up to ±10 % so that many endpoints failing at once do not come back together.
 */
export const DEFAULT_RETRY_SCHEDULE = '5s,5m,30m,2h,5h,10h,10h';

const UNIT_MS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

/** A duration such as `500ms`, `5s`, `5m`, `2h`, `1d` in milliseconds; undefined if unreadable. */
export function durationMs(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)\s*$/.exec(text);
  if (!m) return undefined;
  // The pattern matched, and its unit group admits only the units UNIT_MS has.
  return Math.round(Number(m[1]) * (UNIT_MS[m[2] as string] as number));
}

/** The waits between attempts, in ms; throws with what to write when one is unreadable. */
export function parseRetrySchedule(text: string): number[] {
  const waits = text.split(',').map((part) => ({ part, ms: durationMs(part) }));
  const bad = waits.find((w) => w.ms === undefined);
  if (bad || waits.length === 0) {
    throw new Error(
      `retry schedule "${text}": "${bad?.part ?? ''}" is not a duration; ` +
        'write durations like 5s,5m,30m,2h separated by commas',
    );
  }
  // Filtered above to the waits that parsed.
  return waits.map((w) => w.ms as number);
}

/** The longest wait a receiver's Retry-After is honoured for; a longer one waits this long. */
export const MAX_RETRY_AFTER_MS = 24 * 3_600_000;

/**
 * When to try again after `attempts` failed attempts, or undefined when the schedule is spent
 * (the delivery fails for good). A receiver's Retry-After (429/503) replaces the scheduled wait.
 */
export function nextAttemptAt(opts: {
  attempts: number;
  scheduleMs: readonly number[];
  now: number;
  random: () => number;
  retryAfterMs?: number | undefined;
}): number | undefined {
  const wait = opts.scheduleMs[opts.attempts - 1];
  if (wait === undefined) return undefined;
  if (opts.retryAfterMs !== undefined) {
    return opts.now + Math.min(Math.max(0, opts.retryAfterMs), MAX_RETRY_AFTER_MS);
  }
  const spread = 0.9 + 0.2 * opts.random();
  return opts.now + Math.round(wait * spread);
}

/** A Retry-After header's wait in ms (seconds, or an HTTP date); undefined if absent or unreadable. */
export function retryAfterMs(header: string | undefined, now: number): number | undefined {
  if (header === undefined || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** What a receiver's answer means: 2xx delivered; 410 stops the endpoint; anything else retries. */
export function answerMeaning(statusCode: number | undefined): 'delivered' | 'gone' | 'retry' {
  if (statusCode !== undefined && statusCode >= 200 && statusCode < 300) return 'delivered';
  if (statusCode === 410) return 'gone';
  return 'retry';
}

/** What an attempt's answer makes of a delivery: delivered, due again, or failed for good. */
export function deliveryResult(
  d: ClaimedDelivery,
  answer: {
    statusCode: number | undefined;
    error: string;
    latencyMs: number;
    retryAfter: string | undefined;
  },
  policy: { scheduleMs: readonly number[]; now: number; random: () => number },
): DeliveryResult {
  const meaning = answerMeaning(answer.statusCode);
  let state: DeliveryResult['state'] = 'delivered';
  let nextAt: number | undefined;
  let disable: string | undefined;
  if (meaning === 'gone') {
    state = 'failed';
    disable = 'the endpoint answered 410 Gone';
  } else if (meaning === 'retry') {
    const busy = answer.statusCode === 429 || answer.statusCode === 503;
    nextAt = nextAttemptAt({
      attempts: d.attempt,
      scheduleMs: policy.scheduleMs,
      now: policy.now,
      random: policy.random,
      retryAfterMs: busy ? retryAfterMs(answer.retryAfter, policy.now) : undefined,
    });
    state = nextAt === undefined ? 'failed' : 'pending';
  }
  // Built once, field by field: one of these is made per delivery.
  return {
    eventId: d.eventId,
    endpointId: d.endpointId,
    claim: d.claim,
    attempt: d.attempt,
    at: policy.now,
    statusCode: answer.statusCode,
    error: answer.error,
    latencyMs: answer.latencyMs,
    state,
    nextAt,
    disable,
  };
}
