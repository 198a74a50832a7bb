import assert from 'node:assert/strict';
import type { TestGateway } from './gateway.js';

/**
 * For the tests of event delivery itself: an endpoint of account 1 on contact.opted_in, and
 * events of that type with data of the test's own making ({ N }), written straight to the store.
 */
export async function optInEndpoint(
  gw: TestGateway,
  url: string,
): Promise<{ id: string; secret: string }> {
  const { json } = await gw.api({
    Action: 'CreateWebhookEndpoint',
    AccountId: 1,
    Url: url,
    EventTypes: ['contact.opted_in'],
  });
  assert.equal(json.RetCode, 0, json.Message);
  return { id: json.EndpointId as string, secret: json.Secret as string };
}

/** `n` contact.opted_in events of account 1, numbered N = 0 … n - 1. */
export function emitOptIns(gw: TestGateway, n: number): Promise<number[]> {
  return gw.store.emitEvents(
    Array.from({ length: n }, (_, i) => ({
      accountId: 1,
      type: 'contact.opted_in' as const,
      at: Date.now(),
      data: { N: i },
    })),
    Date.now(),
  );
}
