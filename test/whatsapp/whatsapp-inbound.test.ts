import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FakeGraph } from '../helpers/fake-graph.js';
import type { TestGateway } from '../helpers/gateway.js';
import { BUSINESS_PHONE, cn } from '../helpers/sending.js';
import {
  notification,
  postWebhook,
  registerWhatsAppPhone,
  sign,
  startWhatsAppGateway,
} from '../helpers/whatsapp.js';

const T0 = 1_790_000_000;

/** Messages people send to a business phone, as Meta's webhook posts them (WBA messages). */
function messagesNotification(
  messages: Record<string, unknown>[],
  display = BUSINESS_PHONE,
): string {
  const contacts = [{ profile: { name: 'Ada' }, wa_id: cn(901).slice(1) }];
  return notification({ contacts, messages }, display.slice(1));
}

interface Item {
  InboundId: string;
  Channel: string;
  From: string;
  To: string;
  Type: string;
  Text?: string;
  Content?: Record<string, unknown>;
  ReceiveTime: number;
}

describe('WhatsApp webhook: messages to a business phone', () => {
  let graph: FakeGraph;
  let gw: TestGateway;
  before(async () => {
    graph = await FakeGraph.start();
    gw = await startWhatsAppGateway(graph);
    await registerWhatsAppPhone(gw);
  });
  after(async () => {
    await gw.close();
    await graph.close();
  });

  const inbound = async () => {
    const { json } = await gw.api({
      Action: 'ListInboundMessages',
      AccountId: 1,
      Channel: 'whatsapp',
    });
    assert.equal(json.RetCode, 0, json.Message);
    return json.Data as Item[];
  };

  it('stores each message once per wamid, for the account of the business phone', async () => {
    const body = messagesNotification([
      {
        from: cn(901).slice(1),
        id: 'wamid.TEXT1',
        timestamp: String(T0),
        type: 'text',
        text: { body: 'Hi there' },
      },
      {
        from: cn(901).slice(1),
        id: 'wamid.LOC1',
        timestamp: String(T0 + 1),
        type: 'location',
        location: { latitude: 31.23, longitude: 121.47, name: 'The Bund' },
      },
      {
        from: cn(901).slice(1),
        id: 'wamid.BTN1',
        timestamp: String(T0 + 2),
        type: 'interactive',
        interactive: { type: 'button_reply', button_reply: { id: 'yes', title: 'Yes' } },
      },
      {
        from: cn(901).slice(1),
        id: 'wamid.NEW1',
        timestamp: String(T0 + 3),
        type: 'future_type',
        future_type: { x: 1 },
      },
    ]);
    const first = await postWebhook(gw, body);
    assert.equal(first.status, 200);
    assert.equal(first.json.Messages, 4);
    // Meta retries a notification it got no 200 for: the same wamids are stored once.
    assert.equal((await postWebhook(gw, body)).status, 200);
    const items = await inbound();
    assert.deepEqual(
      items.map((m) => [m.Type, m.From, m.To]),
      [
        ['future_type', cn(901), BUSINESS_PHONE],
        ['interactive', cn(901), BUSINESS_PHONE],
        ['location', cn(901), BUSINESS_PHONE],
        ['text', cn(901), BUSINESS_PHONE],
      ],
    );
    const [unknown, button, location, text] = items;
    assert.equal(text?.Text, 'Hi there');
    assert.equal(text.ReceiveTime, T0);
    assert.deepEqual((location?.Content?.location as { name: string }).name, 'The Bund');
    assert.deepEqual((button?.Content?.interactive as { button_reply: unknown }).button_reply, {
      id: 'yes',
      title: 'Yes',
    });
    assert.deepEqual(
      unknown?.Content?.future_type,
      { x: 1 },
      'an unknown type is kept as received',
    );
  });

  it('a message to a business phone nobody registered is unrouted; an unsigned post is refused', async () => {
    const body = messagesNotification(
      [
        {
          from: cn(902).slice(1),
          id: 'wamid.LOST',
          timestamp: String(T0),
          type: 'text',
          text: { body: '?' },
        },
      ],
      '+8613900009999',
    );
    assert.equal((await postWebhook(gw, body)).status, 200);
    const unrouted = await gw.admin('GET', '/admin/inbound/unrouted');
    assert.deepEqual(
      (unrouted.json.DataSet as Item[]).map((m) => [m.To, m.Text]),
      [['+8613900009999', '?']],
    );
    const forged = messagesNotification([
      {
        from: cn(903).slice(1),
        id: 'wamid.FORGED',
        timestamp: String(T0),
        type: 'text',
        text: { body: 'x' },
      },
    ]);
    assert.equal((await postWebhook(gw, forged, sign(forged, 'not-the-secret'))).status, 401);
    assert.ok(!(await inbound()).some((m) => m.InboundId && m.Text === 'x'));
  });
});
