import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { formOf } from '../helpers/fake-graph.js';
import { uploadedId } from '../helpers/media.js';
import { cn, sentMessageId } from '../helpers/sending.js';
import {
  ACCESS_TOKEN,
  PHONE_NUMBER_ID,
  requestsTo,
  wamidOf,
  useWhatsAppGateway,
} from '../helpers/whatsapp.js';

/** The gateway as a whole: POST /media, then SendMessage naming the upload by its id. */
describe('WhatsApp channel: media ids from POST /media', () => {
  const ctx = useWhatsAppGateway();

  it('uploads the file to the phone number once, then sends its WhatsApp media id', async () => {
    const mediaId = await uploadedId(ctx.gw, 'image/png', 'cat.png');
    const first = cn(3001);
    const second = cn(3002);
    for (const to of [first, second]) {
      const content = JSON.stringify({ id: mediaId, caption: 'A cat' });
      await wamidOf(
        ctx.gw,
        await sentMessageId(ctx.gw, { To: to, Type: 'image', Content: content }),
      );
    }
    const uploads = ctx.graph.mediaRequests();
    assert.equal(uploads.length, 1, 'one upload serves both messages');
    const upload = uploads[0];
    assert.equal(upload?.path, `/${PHONE_NUMBER_ID}/media`);
    assert.equal(upload.headers.authorization, `Bearer ${ACCESS_TOKEN}`);
    const form = await formOf(upload);
    assert.equal(form.get('messaging_product'), 'whatsapp');
    assert.equal(form.get('type'), 'image/png');
    const file = form.get('file') as File;
    assert.equal(file.name, 'cat.png');
    assert.equal(file.size, 64);
    for (const to of [first, second]) {
      const [request] = requestsTo(ctx.graph, to);
      const image = (request?.json as { image: { id: string; caption: string } }).image;
      assert.match(image.id, /^9\d+$/, 'the WhatsApp media id, not ours');
      assert.notEqual(image.id, mediaId);
      assert.equal(image.caption, 'A cat');
    }
  });

  it('a template header document named by media id goes out with the WhatsApp id and the file name', async () => {
    const mediaId = await uploadedId(ctx.gw, 'application/pdf', 'invoice.pdf');
    const to = cn(3003);
    const content = JSON.stringify({
      name: 'order_update',
      language: { code: 'en_US', policy: 'deterministic' },
      components: [
        { type: 'header', parameters: [{ type: 'document', document: { id: mediaId } }] },
      ],
    });
    await wamidOf(
      ctx.gw,
      await sentMessageId(ctx.gw, { To: to, Type: 'template', Content: content }),
    );
    const [request] = requestsTo(ctx.graph, to);
    const template = (request?.json as { template: { components: unknown[] } }).template;
    const header = template.components[0] as {
      parameters: { document: { id: string; filename?: string } }[];
    };
    const document = header.parameters[0]?.document;
    assert.match(document?.id ?? '', /^9\d+$/);
    assert.equal(document?.filename, 'invoice.pdf');
  });
});
