import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import { uploadedId } from './helpers/media.js';
import {
  accountKey,
  messageView,
  registerBusinessPhone,
  sendMessage,
  sentMessageId,
  storedMessages,
} from './helpers/sending.js';

const EN = { code: 'en_US', policy: 'deterministic' };
const headerTemplate = (media: Record<string, unknown>) => ({
  name: 'order_update',
  language: EN,
  components: [{ type: 'header', parameters: [media] }],
});

describe('SendMessage with Wirebird media ids', () => {
  let gw: TestGateway;
  let png: string;
  let pdf: string;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0 });
    await registerBusinessPhone(gw);
    png = await uploadedId(gw, 'image/png', 'cat.png');
    pdf = await uploadedId(gw, 'application/pdf', 'invoice.pdf');
  });
  after(() => gw.close());

  async function refused(type: string, content: unknown, field: string, why: RegExp) {
    const before = await storedMessages(gw);
    const json = await sendMessage(gw, { Type: type, Content: JSON.stringify(content) });
    assert.equal(json.RetCode, RetCode.InvalidParameter, json.Message);
    assert.ok(json.Message.startsWith(`${field} `), `"${json.Message}" should name ${field}`);
    assert.match(json.Message, why);
    assert.equal(await storedMessages(gw), before, 'a refused message is not stored');
  }

  it("accepts the account's own upload, storing the id as sent", async () => {
    const id = await sentMessageId(gw, { Type: 'image', Content: JSON.stringify({ id: png }) });
    assert.deepEqual((await messageView(gw, id)).Content, { type: 'image', image: { id: png } });
  });

  it("gives a document sent by id without a filename the uploaded file's name", async () => {
    const unnamed = await sentMessageId(gw, {
      Type: 'document',
      Content: JSON.stringify({ id: pdf }),
    });
    assert.deepEqual((await messageView(gw, unnamed)).Content, {
      type: 'document',
      document: { id: pdf, filename: 'invoice.pdf' },
    });
    const named = { id: pdf, filename: 'March.pdf' };
    const id = await sentMessageId(gw, { Type: 'document', Content: JSON.stringify(named) });
    assert.deepEqual((await messageView(gw, id)).Content, { type: 'document', document: named });
  });

  it('refuses an id nobody uploaded, naming the field as the Content spells it', async () => {
    await refused('image', { id: 'wbm_nothing' }, 'Content.id', /"wbm_nothing" is not a media id/);
    const wrapped = { type: 'image', image: { id: 'wbm_nothing' } };
    await refused('image', wrapped, 'Content.image.id', /POST \/media/);
  });

  it('refuses an id whose file is not of the kind the field wants', async () => {
    await refused(
      'image',
      { id: pdf },
      'Content.id',
      /application\/pdf file, but image takes image\/jpeg/,
    );
    await refused(
      'sticker',
      { id: png },
      'Content.id',
      /image\/png file, but sticker takes image\/webp/,
    );
  });

  it('checks template header media ids too', async () => {
    const good = headerTemplate({ type: 'image', image: { id: png } });
    await sentMessageId(gw, { Type: 'template', Content: JSON.stringify(good) });
    const unknown = headerTemplate({ type: 'document', document: { id: 'wbm_gone' } });
    const path = 'Content.components[0].parameters[0].document.id';
    await refused('template', unknown, path, /is not a media id/);
    const mismatched = headerTemplate({ type: 'video', video: { id: png } });
    await refused(
      'template',
      mismatched,
      'Content.components[0].parameters[0].video.id',
      /video takes/,
    );
  });

  it("refuses another account's upload as if it did not exist", async () => {
    const key = await accountKey(gw, 7);
    await registerBusinessPhone(gw, undefined, 7);
    const content = JSON.stringify({ id: png });
    const json = await sendMessage(gw, { AccountId: 7, Type: 'image', Content: content }, { key });
    assert.equal(json.RetCode, RetCode.InvalidParameter, json.Message);
    assert.match(json.Message, /^Content\.id "wbm_.*" is not a media id this account uploaded/);
  });

  it('passes ids of WhatsApp’s own form through unchecked', async () => {
    const id = await sentMessageId(gw, {
      Type: 'video',
      Content: JSON.stringify({ id: '1234567890' }),
    });
    assert.deepEqual((await messageView(gw, id)).Content, {
      type: 'video',
      video: { id: '1234567890' },
    });
  });
});
