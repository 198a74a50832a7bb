import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../../src/domain/errors.js';
import { FakeGraph } from '../helpers/fake-graph.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { ManualTime } from '../helpers/manual-time.js';
import {
  BUSINESS_PHONE,
  approvedTemplate,
  cn,
  sendMessage,
  storedMessages,
} from '../helpers/sending.js';
import {
  notification,
  postWebhook,
  registerWhatsAppPhone,
  startWhatsAppGateway,
} from '../helpers/whatsapp.js';

const OTHER_PHONE = '+8613900000042';
const TEMPLATE = {
  Type: 'template',
  Content: JSON.stringify({ name: 'hello', language: { code: 'en_US', policy: 'deterministic' } }),
};

/** Asserts that the send was refused as outside the window, with nothing stored. */
async function refusedOutside(gw: TestGateway, fields: Record<string, unknown>, why: RegExp) {
  const before = await storedMessages(gw);
  const json = await sendMessage(gw, fields);
  assert.equal(json.RetCode, RetCode.WindowClosed, json.Message);
  assert.match(json.Message, why);
  assert.match(json.Message, /outside the window only a template may be sent/);
  assert.equal(await storedMessages(gw), before, 'a refused message is not stored');
}

describe('the 24-hour window on a WhatsApp business phone', () => {
  let graph: FakeGraph;
  let gw: TestGateway;
  before(async () => {
    graph = await FakeGraph.start();
    gw = await startWhatsAppGateway(graph);
    // Left out, WindowGuard is on for WhatsApp.
    await registerWhatsAppPhone(gw, { WindowGuard: undefined });
    await registerWhatsAppPhone(gw, {
      BusinessPhone: OTHER_PHONE,
      PhoneNumberId: '2222',
      WindowGuard: undefined,
    });
  });
  after(async () => {
    await gw.close();
    await graph.close();
  });

  /** The contact writes to `to`, as Meta's webhook posts it (its timestamp is now). */
  async function contactWrites(from: string, to = BUSINESS_PHONE) {
    const message = {
      from: from.slice(1),
      id: `wamid.IN${from}${to}${Date.now()}`,
      timestamp: String(Math.floor(Date.now() / 1000)),
      type: 'text',
      text: { body: 'hi' },
    };
    const contacts = [{ profile: { name: 'Ada' }, wa_id: from.slice(1) }];
    const { status } = await postWebhook(
      gw,
      notification({ contacts, messages: [message] }, to.slice(1)),
    );
    assert.equal(status, 200);
  }

  it('refuses a free-form message to a contact who never wrote; a template goes', async () => {
    await refusedOutside(
      gw,
      { To: cn(500) },
      /^\+8613800000500 has not written to \+8613900000000/,
    );
    const template = await sendMessage(gw, { To: cn(500), ...TEMPLATE });
    assert.equal(template.RetCode, 0, template.Message);
  });

  it('opens once the contact writes, for that phone and contact only', async () => {
    await contactWrites(cn(501));
    const json = await sendMessage(gw, { To: cn(501) });
    assert.equal(json.RetCode, 0, json.Message);
    await refusedOutside(
      gw,
      { To: cn(501), BusinessPhone: OTHER_PHONE },
      /has not written to \+8613900000042/,
    );
    await refusedOutside(gw, { To: cn(502) }, /^\+8613800000502 has not written/);
  });

  it('is not kept on a phone registered with WindowGuard false', async () => {
    await registerWhatsAppPhone(gw, {
      BusinessPhone: OTHER_PHONE,
      PhoneNumberId: '2222',
      WindowGuard: false,
    });
    const json = await sendMessage(gw, { To: cn(503), BusinessPhone: OTHER_PHONE });
    assert.equal(json.RetCode, 0, json.Message);
  });
});

describe('the 24-hour window on the simulator, with the clock moved', () => {
  const time = new ManualTime(Date.now());
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0, acceptThreads: 0 }, undefined, {
      clock: time,
      scheduler: time,
    });
    const plain = await gw.admin('POST', '/admin/accounts/1/business-phones', {
      BusinessPhone: OTHER_PHONE,
    });
    assert.equal(plain.json.WindowGuard, false, 'off by default on the simulator');
    const kept = await gw.admin('POST', '/admin/accounts/1/business-phones', {
      BusinessPhone: BUSINESS_PHONE,
      WindowGuard: true,
    });
    assert.equal(kept.json.WindowGuard, true);
  });
  after(() => gw.close());

  const contactWrites = async (from: string) => {
    const r = await gw.admin('POST', '/admin/simulator/inbound', {
      From: from,
      To: BUSINESS_PHONE,
      Text: 'hello?',
      Channel: 'whatsapp',
    });
    assert.equal(r.status, 201, r.json.Message);
  };

  it('is off by default there, so a first text just goes', async () => {
    const json = await sendMessage(gw, { To: cn(600), BusinessPhone: OTHER_PHONE });
    assert.equal(json.RetCode, 0, json.Message);
  });

  it('with WindowGuard on: opens with a message, closes 24 hours later, reopens with the next', async () => {
    await refusedOutside(gw, { To: cn(601) }, /has not written/);
    await contactWrites(cn(601));
    const wrote = time.now();
    assert.equal((await sendMessage(gw, { To: cn(601) })).RetCode, 0);
    await time.jump(24 * 60 * 60 * 1000 - 1);
    assert.equal((await sendMessage(gw, { To: cn(601) })).RetCode, 0, 'still open at 24h - 1ms');
    await time.advance(1);
    const closedAt = new Date(wrote + 24 * 60 * 60 * 1000).toISOString();
    await refusedOutside(
      gw,
      { To: cn(601) },
      new RegExp(`window with \\+8613800000601 closed at ${closedAt}`),
    );
    await contactWrites(cn(601));
    assert.equal((await sendMessage(gw, { To: cn(601) })).RetCode, 0);
  });

  it('a scheduled free-form message needs the window open at its SendAt, fallback or not', async () => {
    await contactWrites(cn(602));
    const closes = new Date(time.now() + 24 * 60 * 60 * 1000).toISOString();
    const sendAt = (hours: number) => Math.floor(time.now() / 1000) + hours * 3600;
    const within = await sendMessage(gw, { To: cn(602), SendAt: sendAt(23) });
    assert.equal(within.RetCode, 0, within.Message);
    const late = new RegExp(`window with \\+8613800000602 closes at ${closes}, before SendAt`);
    await refusedOutside(gw, { To: cn(602), SendAt: sendAt(25) }, late);
    const tpl = await approvedTemplate(gw, 'We tried to reach you');
    const fallback = { TemplateId: tpl, TemplateParams: [] };
    await refusedOutside(gw, { To: cn(602), SendAt: sendAt(25), Fallback: fallback }, late);
  });
});
