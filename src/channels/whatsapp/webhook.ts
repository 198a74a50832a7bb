/**
 * Meta's webhook for the WhatsApp channel: the GET verification handshake and signed POSTs of
 * status notifications. The signature is an HMAC of the body exactly as received, so this route
 * parses its own JSON from the raw bytes, after checking them.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Logger } from 'pino';
import type { WhatsAppConfig } from '../../config/whatsapp-config.js';
import { WirebirdError, type RetCodeName } from '../../domain/errors.js';
import type { Clock } from '../../domain/ports.js';
import type {
  InboundListener,
  ReportListener,
  WebhookAnswer,
  WebhookHandler,
  WebhookRequest,
} from '../channel.js';
import { inboundMessages } from './inbound-notification.js';
import { statusReports } from './status-notification.js';

export const WEBHOOK_PATH = '/webhooks/whatsapp';

export interface WebhookDeps {
  config: Pick<WhatsAppConfig, 'verifyToken' | 'appSecret'>;
  reports: ReportListener;
  /** Where the messages people send to a business phone are stored, once each. */
  inbound: InboundListener;
  clock: Clock;
  log: Logger;
  /** Told of every POST refused for its signature (metrics). */
  onBadSignature?: () => void;
}

/** Meta batches up to 1000 updates a POST; this leaves room for that with their metadata. */
const BODY_LIMIT = 8 * 1024 * 1024;

function param(query: WebhookRequest['query'], name: string): string | undefined {
  // A repeated parameter arrives as an array: it is no token, mode or challenge at all.
  const value = query[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The webhook as a request in and an answer out: the HTTP server mounts it (api/). */
export function whatsAppWebhook(deps: WebhookDeps): WebhookHandler {
  return {
    path: WEBHOOK_PATH,
    bodyLimit: BODY_LIMIT,
    handle: (request) =>
      request.method === 'GET'
        ? Promise.resolve(verify(deps, request.query))
        : receive(deps, request),
  };
}

function verify(deps: WebhookDeps, query: WebhookRequest['query']): WebhookAnswer {
  const expected = deps.config.verifyToken;
  const token = param(query, 'hub.verify_token');
  const challenge = param(query, 'hub.challenge');
  if (!expected) {
    return refuse(
      403,
      'PermissionDenied',
      'no verify token is configured (WIREBIRD_WHATSAPP_VERIFY_TOKEN)',
    );
  }
  if (param(query, 'hub.mode') !== 'subscribe' || !token || !sameSecret(token, expected)) {
    return refuse(403, 'PermissionDenied', 'hub.mode or hub.verify_token does not match');
  }
  if (!challenge) return refuse(400, 'InvalidParameter', 'hub.challenge is required');
  return { status: 200, text: challenge };
}

async function receive(deps: WebhookDeps, request: WebhookRequest): Promise<WebhookAnswer> {
  const header = request.headers['x-hub-signature-256'];
  const raw = request.body;
  const secret = deps.config.appSecret;
  if (!secret || !signatureMatches(raw, header, secret)) {
    deps.onBadSignature?.();
    deps.log.warn(
      { signed: header !== undefined, configured: secret !== undefined },
      'webhook POST refused: X-Hub-Signature-256 missing or wrong',
    );
    return refuse(401, 'Unauthenticated', 'X-Hub-Signature-256 is missing or does not match');
  }
  let notification: unknown;
  try {
    notification = JSON.parse(raw.toString('utf8'));
  } catch {
    return refuse(400, 'MalformedRequest', 'the notification is not valid JSON');
  }
  const now = deps.clock.now();
  const { reports, skipped } = statusReports(notification, now);
  if (skipped > 0) deps.log.warn({ skipped }, 'webhook statuses without an id or a known status');
  const messages = inboundMessages(notification, now);
  if (messages.skipped > 0) {
    deps.log.warn({ skipped: messages.skipped }, 'webhook messages without a wamid or sender');
  }
  try {
    for (const arrived of messages.arrived) await deps.inbound(arrived);
    if (reports.length > 0) await deps.reports(reports);
  } catch (err) {
    // Not acknowledged, so Meta sends it again (it retries for up to 36 hours); what was stored
    // already is recognised by its wamid and kept once.
    deps.log.error({ err }, 'webhook statuses or messages could not be stored');
    return refuse(503, 'Internal', 'the notification could not be stored; send it again');
  }
  const answer = { Statuses: reports.length, Messages: messages.arrived.length };
  return { status: 200, json: { RetCode: 0, Message: '', ...answer } };
}

/** `sha256=<hex>` over the raw body with the app secret, compared in constant time. */
export function signatureMatches(
  raw: Buffer,
  header: string | string[] | undefined,
  secret: string,
): boolean {
  const value = Array.isArray(header) ? header[0] : header;
  const m = value ? /^sha256=([0-9a-f]{64})$/i.exec(value.trim()) : null;
  if (!m?.[1]) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(m[1], 'hex'));
}

function sameSecret(given: string, expected: string): boolean {
  const a = createHmac('sha256', 'verify').update(given).digest();
  const b = createHmac('sha256', 'verify').update(expected).digest();
  return timingSafeEqual(a, b);
}

function refuse(status: number, code: RetCodeName, message: string): WebhookAnswer {
  return { status, refusal: new WirebirdError(code, message) };
}
