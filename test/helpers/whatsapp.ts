/** Helpers for the WhatsApp channel tests: a gateway pointed at a fake Graph API, signed webhooks. */
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { createHmac } from 'node:crypto';
import type { Logger } from 'pino';
import { eventually, startTestGateway, type TestGateway } from './gateway.js';
import { FakeGraph, type GraphRequest } from './fake-graph.js';
import { BUSINESS_PHONE, messageView, type MessageView } from './sending.js';

export const PHONE_NUMBER_ID = '106540352242922';
export const ACCESS_TOKEN = 'EAAGm0PX4ZCpsBAKZCXtoken-not-for-logs-1234567890';
export const APP_SECRET = 'app-secret-for-webhook-tests';
export const VERIFY_TOKEN = 'verify-me-please';

/** A gateway whose WhatsApp channel talks to `graph`, with webhook secrets and quick retries. */
export function startWhatsAppGateway(
  graph: FakeGraph,
  whatsapp: Record<string, unknown> = {},
  logger?: Logger,
): Promise<TestGateway> {
  return startTestGateway(
    {
      simDelayMs: 0,
      whatsapp: {
        apiUrl: graph.url,
        appSecret: APP_SECRET,
        verifyToken: VERIFY_TOKEN,
        timeoutMs: 2000,
        ...whatsapp,
      },
      dispatch: { pollMs: 10, maxAttempts: 3 },
    },
    logger,
  );
}

export async function registerWhatsAppPhone(
  gw: TestGateway,
  fields: Record<string, unknown> = {},
  accountId = 1,
): Promise<Record<string, unknown>> {
  const { status, json } = await gw.admin('POST', `/admin/accounts/${accountId}/business-phones`, {
    BusinessPhone: BUSINESS_PHONE,
    Channel: 'whatsapp',
    PhoneNumberId: PHONE_NUMBER_ID,
    AccessToken: ACCESS_TOKEN,
    // These tests are about sending; the 24-hour window has its own (test/whatsapp/window.test.ts).
    WindowGuard: false,
    ...fields,
  });
  assert.equal(status, 201, json.Message);
  return json;
}

/** The Graph API request that carried `messageId`'s message (by its `to` and order of arrival). */
export function requestsTo(graph: FakeGraph, to: string): GraphRequest[] {
  return graph.messageRequests().filter((r) => (r.json as { to?: string }).to === to);
}

/** The wamid a message was stored with, once it was submitted. */
export async function wamidOf(gw: TestGateway, messageId: string): Promise<string> {
  return eventually(async () => {
    const view = (await messageView(gw, messageId)) as MessageView & { UpstreamId: string };
    return view.UpstreamId || undefined;
  }, `message ${messageId} to be submitted`);
}

export function sign(body: string | Buffer, secret = APP_SECRET): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** POSTs `body` (sent byte for byte) to the webhook with the given signature header (null: none). */
export async function postWebhook(
  gw: TestGateway,
  body: string | Buffer,
  signature: string | null = sign(body),
): Promise<{ status: number; json: Record<string, unknown> }> {
  const res = await fetch(`${gw.url}/webhooks/whatsapp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
    },
    body,
  });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

export interface StatusUpdate {
  id: string;
  status: string;
  timestamp: number;
  errors?: unknown[];
}

/** A webhook notification as Meta sends it: one change whose value holds `fields`. */
export function notification(
  fields: Record<string, unknown>,
  displayPhoneNumber = '8613900000000',
): string {
  return JSON.stringify({
    object: 'whatsapp_business_account',
    entry: [
      {
        id: '102290129340398',
        changes: [
          {
            field: 'messages',
            value: {
              messaging_product: 'whatsapp',
              metadata: {
                display_phone_number: displayPhoneNumber,
                phone_number_id: PHONE_NUMBER_ID,
              },
              ...fields,
            },
          },
        ],
      },
    ],
  });
}

/** A status notification as Meta sends it (WBA status.md). */
export function statusNotification(...statuses: StatusUpdate[]): string {
  return notification({
    statuses: statuses.map((s) => ({
      id: s.id,
      status: s.status,
      timestamp: String(s.timestamp),
      recipient_id: '8613800000000',
      ...(s.errors ? { errors: s.errors } : {}),
    })),
  });
}

/**
 * A fake Graph API and a gateway pointed at it, with the WhatsApp phone registered, for one
 * describe block: started before its tests, closed after. Read them through the returned object.
 */
export function useWhatsAppGateway(whatsapp: Record<string, unknown> = {}): {
  graph: FakeGraph;
  gw: TestGateway;
} {
  const ctx = {} as { graph: FakeGraph; gw: TestGateway };
  before(async () => {
    ctx.graph = await FakeGraph.start();
    ctx.gw = await startWhatsAppGateway(ctx.graph, whatsapp);
    await registerWhatsAppPhone(ctx.gw);
  });
  after(async () => {
    await ctx.gw.close();
    await ctx.graph.close();
  });
  return ctx;
}
