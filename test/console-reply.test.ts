import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { consoleLogin, flat } from './helpers/console-client.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  BUSINESS_PHONE,
  accountKey,
  approvedTemplate,
  cn,
  messageWhen,
  registerBusinessPhone,
  sendAll,
  sentMessageId,
} from './helpers/sending.js';

/** The Inbox's reply box: a test phone answers, and the reply joins the conversation. */
describe('console: a test phone replies', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0 });
  });
  after(() => gw.close());

  it('stores the reply for the account of the number and shows it in the conversation', async () => {
    const tpl = await approvedTemplate(gw, 'Confirm {1}?');
    await sendAll(gw, [{ TemplateId: tpl, Target: [{ Phone: cn(801), TemplateParams: ['x'] }] }]);
    const account = await consoleLogin(gw.url, gw.key);
    const page = await account.get(`/console/inbox?phone=${encodeURIComponent(cn(801))}`);
    assert.match(page.text, /<form method="post" action="\/console\/inbox\/reply" class="reply">/);
    const sent = await account.post('/console/inbox/reply', {
      phone: cn(801),
      to: '10690001',
      channel: 'sms',
      text: 'Yes <b>please</b>',
    });
    assert.equal(sent.status, 303, sent.text);
    const back = await account.get(sent.location ?? '');
    const id = /Reply stored as (in_[\w-]+)\./.exec(back.text)?.[1];
    assert.ok(id, 'the page names the stored reply');
    assert.match(back.text, new RegExp(`id="reply-${id}"`));
    assert.match(back.text, /Yes &lt;b&gt;please&lt;\/b&gt;/, 'the reply is shown as text');
    const listed = await gw.api({ Action: 'ListInboundMessages', AccountId: 1 });
    const data = listed.json.Data as { InboundId: string; Text: string }[];
    assert.deepEqual(
      data.map((m) => [m.InboundId, m.Text]),
      [[id, 'Yes <b>please</b>']],
    );
  });

  it('shows the 24-hour window of each business phone in the conversation, opened by a reply', async () => {
    await registerBusinessPhone(gw);
    const id = await sentMessageId(gw, { To: cn(803) });
    await messageWhen(gw, id, 'delivered');
    const account = await consoleLogin(gw.url, gw.key);
    const path = `/console/inbox?phone=${encodeURIComponent(cn(803))}`;
    const closed = await account.get(path);
    // The window lines as text, their markup left out.
    const line = (text: string) =>
      flat(/<ul class="windows">([\s\S]*?)<\/ul>/.exec(text)?.[1] ?? '')
        .replace(/<[^>]+>/g, '')
        .trim();
    assert.equal(
      line(closed.text),
      `24-hour window with ${BUSINESS_PHONE}: not open: this phone has not written to it`,
    );
    const sent = await account.post('/console/inbox/reply', {
      phone: cn(803),
      to: BUSINESS_PHONE,
      channel: 'whatsapp',
      text: 'Thanks',
    });
    assert.equal(sent.status, 303, sent.text);
    const open = await account.get(path);
    assert.match(
      line(open.text),
      new RegExp(`with \\${BUSINESS_PHONE}: open until \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d`),
    );
  });

  it('an account may only answer to its own numbers; the admin to any', async () => {
    const key = await accountKey(gw, 9);
    const other = await consoleLogin(gw.url, key);
    const refused = await other.post('/console/inbox/reply', {
      phone: cn(802),
      to: '10690001',
      channel: 'sms',
      text: 'not yours',
    });
    assert.equal(refused.status, 403);
    assert.match(refused.text, /10690001 is not a number of this account/);
    const admin = await consoleLogin(gw.url, gw.adminKey);
    const ok = await admin.post('/console/inbox/reply', {
      phone: cn(802),
      to: '10699990',
      channel: 'sms',
      text: 'to nobody',
    });
    assert.equal(ok.status, 303);
    const unrouted = await gw.admin('GET', '/admin/inbound/unrouted');
    assert.deepEqual(
      (unrouted.json.DataSet as { Text: string }[]).map((m) => m.Text),
      ['to nobody'],
    );
    const none = (await gw.api({ Action: 'ListInboundMessages', AccountId: 9 }, { key })).json;
    assert.deepEqual(none.Data, []);
  });
});
