import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkConfig } from '../../src/config/config.js';
import { WhatsAppChannel } from '../../src/channels/whatsapp/whatsapp-channel.js';
import type { BusinessContent } from '../../src/domain/business-messages/content.js';
import type { BusinessPhone } from '../../src/domain/accounts/account.js';
import { log, message } from '../helpers/dispatch-fakes.js';
import { FakeGraph } from '../helpers/fake-graph.js';
import { startTestGateway } from '../helpers/gateway.js';
import { cn, messageWhen, sentMessageId } from '../helpers/sending.js';
import { registerWhatsAppPhone, wamidOf } from '../helpers/whatsapp.js';
import { until } from '../helpers/eventually.js';

/** A clock that moves only when the test moves it: the rate limiter's tokens refill with it. */
const clock = { t: 1_000_000, now: () => clock.t };

const PHONES: Record<string, BusinessPhone> = {
  '+15550000001': phone('+15550000001', '111'),
  '+15550000002': phone('+15550000002', '222'),
};

function phone(businessPhone: string, phoneNumberId: string): BusinessPhone {
  return {
    accountId: 1,
    businessPhone,
    channel: 'whatsapp',
    phoneNumberId,
    accessToken: 'EAAt',
    createdAt: 0,
  };
}

const text = (id: number, businessPhone: string) =>
  message(id, {
    kind: 'business',
    route: 'whatsapp',
    businessPhone,
    type: 'text',
    e164: `+8613800000${100 + id}`,
    body: JSON.stringify({ type: 'text', text: { body: `hello ${id}` } }),
  });

let graph: FakeGraph;
before(async () => {
  graph = await FakeGraph.start();
});
after(() => graph.close());

test('each phone number id has its own bucket of phoneTps messages a second', async () => {
  const config = checkConfig({ whatsapp: { apiUrl: graph.url, phoneTps: 2 } }).whatsapp;
  const store = { getBusinessPhone: async (_a: number, p: string) => PHONES[p] };
  const asIs = { resolve: (content: BusinessContent) => Promise.resolve(content) };
  const channel = new WhatsAppChannel({ store, config, clock, log, media: asIs });
  const pathsSent = () => graph.messageRequests().map((r) => r.path);

  const results = channel.submit([
    text(1, '+15550000001'),
    text(2, '+15550000001'),
    text(3, '+15550000001'),
    text(4, '+15550000002'),
  ]);
  await until(() => graph.messageRequests().length === 3, 'the first second of each bucket', 5000);
  // The clock stands still, so the third message of phone number 111 cannot have gone: its
  // bucket holds two a second. Phone number 222 was not held up behind it.
  assert.deepEqual(pathsSent().sort(), ['/111/messages', '/111/messages', '/222/messages']);
  clock.t += 1000;
  const answered = await results;
  assert.deepEqual(
    answered.map((r) => r.kind),
    ['accepted', 'accepted', 'accepted', 'accepted'],
  );
  assert.equal(pathsSent().filter((p) => p === '/111/messages').length, 3);
});

test('a backlog that takes longer than the lease to go out is sent once, not again by a reclaim', async () => {
  // 15 messages at 5 a second take 3 s; each claim's lease is 1 s unless the dispatcher renews it.
  const gw = await startTestGateway({
    whatsapp: { apiUrl: graph.url, phoneTps: 5 },
    dispatch: { pollMs: 10, leaseMs: 1000, batchSize: 50 },
  });
  try {
    await registerWhatsAppPhone(gw);
    const before = graph.messageRequests().length;
    const ids = [];
    for (let i = 0; i < 15; i++) ids.push(await sentMessageId(gw, { To: cn(2000 + i) }));
    for (const id of ids) await wamidOf(gw, id);
    assert.equal(graph.messageRequests().length - before, 15);
    const view = await messageWhen(gw, ids[14] as string, 'accepted');
    assert.equal((view as unknown as { Attempts: number }).Attempts, 1);
  } finally {
    await gw.close();
  }
});
