import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  BUSINESS_PHONE,
  UUID,
  UUID_V7,
  accountKey,
  cn,
  messageBody,
  messageView,
  messageWhen,
  registerBusinessPhone,
  sendMessage,
  sentMessageId,
  storedMessages,
} from './helpers/sending.js';

const template = (language: unknown, components?: unknown[]) =>
  JSON.stringify({ name: 'verify_code', language, ...(components ? { components } : {}) });
const EN = { code: 'en_US', policy: 'deterministic' };
const CODE_COMPONENTS = [
  { type: 'body', parameters: [{ type: 'text', text: '123456' }] },
  { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: 'abc' }] },
];

/** A minimal valid Content for each of the eight types. */
const MINIMAL: Record<string, unknown> = {
  text: { body: 'hello' },
  image: { link: 'https://example.com/cat.png' },
  video: { id: 'media-video-1' },
  audio: { link: 'https://example.com/hello.mp3' },
  document: { link: 'https://example.com/invoice.pdf', filename: 'invoice.pdf' },
  location: { latitude: 31.2304, longitude: 121.4737 },
  sticker: { id: 'media-sticker-1' },
  template: { name: 'verify_code', language: EN, components: CODE_COMPONENTS },
};

describe('SendMessage', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0, receiptTimeoutS: 1, templateReview: 'manual' });
    await registerBusinessPhone(gw);
  });
  after(() => gw.close());

  /** Asserts a refusal with `code` whose Message names `field`, and that nothing was stored. */
  async function refused(fields: Record<string, unknown>, field: string, code: number) {
    const before = await storedMessages(gw);
    const json = await sendMessage(gw, fields);
    assert.equal(json.RetCode, code, json.Message);
    assert.ok(json.Message.startsWith(field), `"${json.Message}" names ${field}`);
    assert.equal(json.Data, undefined);
    assert.equal(await storedMessages(gw), before, 'a refused message is not stored');
  }

  describe('acceptance', () => {
    it('answers Data.MessageId (ordered by time) and a UUID RequestId and stores the message', async () => {
      const before = await storedMessages(gw);
      const json = await sendMessage(gw, { To: cn(10) });
      assert.equal(json.RetCode, 0, json.Message);
      assert.equal(json.Message, '');
      assert.match(json.RequestId as string, UUID);
      const id = (json.Data as { MessageId: string }).MessageId;
      assert.match(id, UUID_V7);
      assert.equal(await storedMessages(gw), before + 1);
      const view = await messageView(gw, id);
      assert.equal(view.MessageId, id);
      assert.equal(view.AccountId, 1);
      assert.equal(view.BusinessPhone, BUSINESS_PHONE);
      assert.equal(view.To, cn(10));
      assert.equal(view.Type, 'text');
    });

    it('goes accepted → submitted → sent → delivered through the simulator', async () => {
      const id = await sentMessageId(gw, { To: cn(11) });
      const view = await messageWhen(gw, id, 'delivered');
      assert.deepEqual(
        view.History.map((e) => e.Status),
        ['accepted', 'submitted', 'sent', 'delivered'],
      );
      const nowS = Math.ceil(Date.now() / 1000);
      for (const e of view.History) {
        assert.ok(Number.isInteger(e.Time) && e.Time <= nowS && e.Time > nowS - 3600, 'seconds');
      }
    });

    it('goes to failed for the 0001 test number, with the report in the history', async () => {
      const id = await sentMessageId(gw, { To: cn(1) });
      const view = await messageWhen(gw, id, 'failed');
      assert.deepEqual(
        view.History.map((e) => e.Status),
        ['accepted', 'submitted', 'sent', 'failed'],
      );
    });

    it('goes to failed for the 0002 test number, refused at submission', async () => {
      const id = await sentMessageId(gw, { To: cn(2) });
      const view = await messageWhen(gw, id, 'failed');
      assert.deepEqual(
        view.History.map((e) => e.Status),
        ['accepted', 'failed'],
      );
    });

    it('goes to unknown for the 0003 test number after the receipt timeout, in its history', async () => {
      const id = await sentMessageId(gw, { To: cn(3) });
      const view = await messageWhen(gw, id, 'unknown');
      assert.deepEqual(
        view.History.map((e) => e.Status),
        ['accepted', 'submitted', 'unknown'],
      );
    });

    it('accepts lower-case accountId and extra companyId and Purpose fields', async () => {
      const { AccountId: _upper, ...rest } = messageBody({ To: cn(12) });
      const { json } = await gw.api({ ...rest, accountId: 1, companyId: 77, Purpose: 1 });
      assert.equal(json.RetCode, 0, json.Message);
      const view = await messageView(gw, (json.Data as { MessageId: string }).MessageId);
      assert.equal(view.AccountId, 1);
    });

    it('keeps To as the caller wrote it', async () => {
      const id = await sentMessageId(gw, { To: '(86)13800000013' });
      const view = await messageWhen(gw, id, 'delivered');
      assert.equal(view.To, '(86)13800000013');
    });

    for (const [type, content] of Object.entries(MINIMAL)) {
      it(`accepts a minimal ${type} message and delivers it`, async () => {
        const id = await sentMessageId(gw, {
          To: cn(20),
          Type: type,
          Content: JSON.stringify(content),
        });
        const view = await messageWhen(gw, id, 'delivered');
        assert.equal(view.Type, type);
        const stored = view.Content as Record<string, unknown>;
        assert.equal(stored.type, type);
        assert.deepEqual(stored[type], content);
      });
    }
  });

  describe('refusals name the field', () => {
    it('refuses an invalid To', async () => {
      await refused({ To: 'call me' }, 'To', RetCode.InvalidParameter);
      await refused({ To: '+861380000' }, 'To', RetCode.InvalidParameter);
    });

    it('refuses a missing To with 18001', async () => {
      await refused({ To: undefined }, 'To', RetCode.MissingParameter);
    });

    it('refuses an unknown Type', async () => {
      await refused({ Type: 'carrier_pigeon' }, 'Type', RetCode.InvalidParameter);
    });

    it('refuses a Content that is not JSON', async () => {
      await refused({ Content: '{"body": "hi"' }, 'Content', RetCode.InvalidParameter);
    });

    it('refuses a Content whose shape does not fit the Type', async () => {
      await refused(
        { Content: JSON.stringify({ text: 'hi' }) },
        'Content',
        RetCode.InvalidParameter,
      );
      await refused(
        { Type: 'image', Content: JSON.stringify({ link: 'ftp://example.com/a.png' }) },
        'Content.link',
        RetCode.InvalidParameter,
      );
      await refused(
        { Type: 'location', Content: JSON.stringify({ latitude: 91, longitude: 0 }) },
        'Content.latitude',
        RetCode.InvalidParameter,
      );
    });

    it('refuses a BusinessPhone not registered for the account with 18003', async () => {
      await refused({ BusinessPhone: '+8613900000009' }, 'BusinessPhone', RetCode.InvalidParameter);
    });

    it('refuses a BusinessPhone registered for another account', async () => {
      await accountKey(gw, 2);
      await registerBusinessPhone(gw, '+8613900000002', 2);
      await refused({ BusinessPhone: '+8613900000002' }, 'BusinessPhone', RetCode.InvalidParameter);
    });

    it('refuses a template language policy other than "deterministic"', async () => {
      await refused(
        { Type: 'template', Content: template({ code: 'en_US', policy: 'fallback' }) },
        'Content.language.policy',
        RetCode.InvalidParameter,
      );
    });

    it('refuses a template language code not of the form xx_YY', async () => {
      await refused(
        { Type: 'template', Content: template({ code: 'en', policy: 'deterministic' }) },
        'Content.language.code',
        RetCode.InvalidParameter,
      );
    });

    it('refuses a button index "3"', async () => {
      const button = { type: 'button', sub_type: 'url', index: '3', parameters: [] };
      await refused(
        { Type: 'template', Content: template(EN, [CODE_COMPONENTS[0], button]) },
        'Content.components[1].index',
        RetCode.InvalidParameter,
      );
    });

    it('refuses a sub_type other than url or quick_reply', async () => {
      const button = { type: 'button', sub_type: 'call', index: '0' };
      await refused(
        { Type: 'template', Content: template(EN, [button]) },
        'Content.components[0].sub_type',
        RetCode.InvalidParameter,
      );
    });

    it('refuses a parameter type the component does not allow', async () => {
      const body = { type: 'body', parameters: [{ type: 'payload', payload: 'x' }] };
      await refused(
        { Type: 'template', Content: template(EN, [body]) },
        'Content.components[0].parameters[0].type',
        RetCode.InvalidParameter,
      );
    });
  });
});
