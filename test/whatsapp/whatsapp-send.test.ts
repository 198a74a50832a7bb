import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { BUSINESS_PHONE, cn, messageView, sentMessageId } from '../helpers/sending.js';
import {
  ACCESS_TOKEN,
  PHONE_NUMBER_ID,
  requestsTo,
  wamidOf,
  useWhatsAppGateway,
} from '../helpers/whatsapp.js';

const EN = { code: 'en_US', policy: 'deterministic' };

/** A template with a header document, a body text and both kinds of button. */
const ORDER_UPDATE = {
  name: 'order_update',
  language: EN,
  components: [
    {
      type: 'header',
      parameters: [
        {
          type: 'document',
          document: { link: 'https://example.com/inv.pdf', filename: 'inv.pdf' },
        },
      ],
    },
    { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
    {
      type: 'button',
      sub_type: 'url',
      index: '0',
      parameters: [{ type: 'text', text: 'ORDER123' }],
    },
    {
      type: 'button',
      sub_type: 'quick_reply',
      index: '1',
      parameters: [{ type: 'payload', payload: 'STOP' }],
    },
  ],
};

/** Each type's Content as a client sends it, and the object WhatsApp must receive for it. */
const CASES: Record<string, { content: unknown; sent: unknown }> = {
  text: {
    content: { body: 'Your order *shipped*: https://example.com/t/1', preview_url: true },
    sent: { body: 'Your order *shipped*: https://example.com/t/1', preview_url: true },
  },
  image: {
    content: { link: 'https://example.com/cat.png', caption: 'A cat' },
    sent: { link: 'https://example.com/cat.png', caption: 'A cat' },
  },
  video: {
    content: { id: '1166846181421424', caption: 'Unboxing' },
    sent: { id: '1166846181421424', caption: 'Unboxing' },
  },
  audio: {
    content: { link: 'https://example.com/hello.mp3' },
    sent: { link: 'https://example.com/hello.mp3' },
  },
  document: {
    content: { link: 'https://example.com/invoice.pdf', caption: 'March', filename: 'invoice.pdf' },
    sent: { link: 'https://example.com/invoice.pdf', caption: 'March', filename: 'invoice.pdf' },
  },
  sticker: { content: { id: '798882015472548' }, sent: { id: '798882015472548' } },
  location: {
    // Strings as in WhatsApp's own examples: they go out as numbers.
    content: {
      latitude: '31.2304',
      longitude: 121.4737,
      name: 'The Bund',
      address: 'Zhongshan Rd',
    },
    sent: { latitude: 31.2304, longitude: 121.4737, name: 'The Bund', address: 'Zhongshan Rd' },
  },
  // Sent exactly as given: the content is WhatsApp's own object already.
  template: { content: ORDER_UPDATE, sent: ORDER_UPDATE },
};

describe('WhatsApp channel: what goes to the Graph API', () => {
  const ctx = useWhatsAppGateway();

  Object.entries(CASES).forEach(([type, { content, sent }], i) => {
    it(`sends a ${type} message as {messaging_product, recipient_type, to, type, ${type}}`, async () => {
      const to = cn(500 + i);
      const messageId = await sentMessageId(ctx.gw, {
        To: to,
        Type: type,
        Content: JSON.stringify(content),
      });
      const wamid = await wamidOf(ctx.gw, messageId);
      const [request, ...more] = requestsTo(ctx.graph, to);
      assert.ok(request, 'one request reached the Graph API');
      assert.equal(more.length, 0);
      assert.equal(request.method, 'POST');
      assert.equal(request.path, `/${PHONE_NUMBER_ID}/messages`);
      assert.equal(request.headers.authorization, `Bearer ${ACCESS_TOKEN}`);
      assert.match(String(request.headers['content-type']), /^application\/json/);
      assert.deepEqual(request.json, {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        to,
        type,
        [type]: sent,
      });
      // Key order too: what went on the wire, byte for byte.
      assert.equal(
        request.body.toString('utf8'),
        JSON.stringify({
          messaging_product: 'whatsapp',
          recipient_type: 'individual',
          to,
          type,
          [type]: sent,
        }),
      );
      assert.match(wamid, /^wamid\./);
      const view = await messageView(ctx.gw, messageId);
      assert.equal((view as unknown as { Route: string }).Route, 'whatsapp');
      assert.equal(view.BusinessPhone, BUSINESS_PHONE);
    });
  });
});
