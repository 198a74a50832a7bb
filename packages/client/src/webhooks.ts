import { createHmac, timingSafeEqual } from 'node:crypto';
import type { components } from './generated/openapi.js';
import type { EVENT_TYPES } from './generated/operations.js';

type Schemas = components['schemas'];

export type EventType = (typeof EVENT_TYPES)[number];

/** `message.receipt` → MessageReceiptEvent, as docs/openapi.json names the bodies. */
type EventSchemaName<T extends string> = T extends `${infer A}.${infer B}`
  ? `${Capitalize<A>}${EventSchemaName<B>}`
  : T extends `${infer A}_${infer B}`
    ? `${Capitalize<A>}${EventSchemaName<B>}`
    : Capitalize<T>;

/** A webhook event's body: `type`, `timestamp` and the type's `data`. */
export type WebhookEvent = {
  [T in EventType]: Schemas[`${EventSchemaName<T>}Event` & keyof Schemas];
}[EventType];

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

type HeaderSource = Headers | Record<string, string | string[] | undefined>;

function header(headers: HeaderSource, name: string): string {
  const v = headers instanceof Headers ? headers.get(name) : headers[name];
  const value = Array.isArray(v) ? v[0] : v;
  if (!value) throw new WebhookVerificationError(`the ${name} header is missing`);
  return value;
}

/** The HMAC key of a `whsec_…` secret: the base64 after the prefix. */
function keyOf(secret: string): Buffer {
  return Buffer.from(
    secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret,
    'base64',
  );
}

/**
 * Checks a webhook request as Standard Webhooks sign it (docs/events.md): one of the
 * `webhook-signature` header's `v1,` signatures must be the HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<body>` with one of `secrets` (two during a rotation), and the
 * timestamp within `toleranceSeconds` of now. Answers the event; throws WebhookVerificationError.
 * Pass the body exactly as received: parsing and serialising it again changes the bytes.
 */
export function verifyWebhook(
  body: string | Buffer,
  headers: HeaderSource,
  secrets: string | readonly string[],
  options: { toleranceSeconds?: number; now?: number } = {},
): WebhookEvent {
  const id = header(headers, 'webhook-id');
  const timestamp = header(headers, 'webhook-timestamp');
  const signatures = header(headers, 'webhook-signature').split(' ');
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const sent = Number(timestamp);
  if (!/^[0-9]+$/.test(timestamp) || Math.abs(now - sent) > (options.toleranceSeconds ?? 300)) {
    throw new WebhookVerificationError('the webhook-timestamp is too far from now (a replay?)');
  }
  const text = typeof body === 'string' ? body : body.toString('utf8');
  const given = signatures.flatMap((s) =>
    s.startsWith('v1,') ? [Buffer.from(s.slice(3), 'base64')] : [],
  );
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) {
    const expected = createHmac('sha256', keyOf(secret))
      .update(`${id}.${timestamp}.${text}`)
      .digest();
    if (given.some((g) => g.length === expected.length && timingSafeEqual(g, expected))) {
      return JSON.parse(text) as WebhookEvent;
    }
  }
  throw new WebhookVerificationError('no webhook-signature matches the secret');
}
