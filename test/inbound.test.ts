import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  accountKey,
  approvedTemplate,
  cn,
  registerBusinessPhone,
  sendAll,
} from './helpers/sending.js';

interface InboundItem {
  InboundId: string;
  Channel: string;
  From: string;
  To: string;
  Text?: string;
  Complete: boolean;
  ReceiveTime: number;
  ReplyTo: { SessionNo: string; MessageId: string } | null;
}

/** Replies from test phones: stored, routed to the account of the number, pulled by cursor. */
describe('inbound messages (simulator replies, ListInboundMessages)', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0 });
  });
  after(() => gw.close());

  const reply = (body: Record<string, unknown>) =>
    gw.admin('POST', '/admin/simulator/inbound', body);
  const list = async (fields: Record<string, unknown> = {}, key?: string, accountId = 1) => {
    const { json } = await gw.api(
      { Action: 'ListInboundMessages', AccountId: accountId, ...fields },
      { key },
    );
    assert.equal(json.RetCode, 0, json.Message);
    return { data: json.Data as InboundItem[], next: json.NextCursor as string };
  };

  it('a reply to the development account’s SMS number is its, linked to the SMS it answers', async () => {
    const tpl = await approvedTemplate(gw, 'Reply YES to confirm {1}');
    const session = await sendAll(gw, [
      { TemplateId: tpl, Target: [{ Phone: cn(501), TemplateParams: ['A-1'] }] },
    ]);
    const { status, json } = await reply({ From: cn(501), To: '10690001', Text: 'YES' });
    assert.equal(status, 201, json.Message);
    assert.equal(json.AccountId, 1);
    assert.match(json.InboundId as string, /^in_[\w-]{16}$/);
    assert.deepEqual(json.ReplyTo, { SessionNo: session, MessageId: '' });
    const { data } = await list();
    const found = data.find((m) => m.InboundId === json.InboundId);
    assert.deepEqual(
      [found?.Channel, found?.From, found?.To, found?.Text, found?.Complete],
      ['sms', cn(501), '10690001', 'YES', true],
    );
    assert.ok(Math.abs((found?.ReceiveTime ?? 0) - Date.now() / 1000) < 60);
  });

  it('a WhatsApp reply to a business phone links to the business message it answers', async () => {
    await registerBusinessPhone(gw, '+8613900000123');
    const sent = await gw.api({
      Action: 'SendMessage',
      AccountId: 1,
      To: cn(502),
      BusinessPhone: '+8613900000123',
      Type: 'text',
      Content: JSON.stringify({ body: 'Your order shipped' }),
    });
    const messageId = (sent.json.Data as { MessageId: string }).MessageId;
    const { json } = await reply({
      From: cn(502),
      To: '+86 139 0000 0123',
      Text: 'Thanks!',
      Channel: 'whatsapp',
    });
    assert.deepEqual([json.Channel, json.AccountId], ['whatsapp', 1]);
    assert.deepEqual(json.ReplyTo, { SessionNo: '', MessageId: messageId });
  });

  it('pages newest first by NextCursor, and filters by phone and channel', async () => {
    for (let i = 0; i < 5; i++) await reply({ From: cn(600 + i), To: '10690001', Text: `r${i}` });
    const first = await list({ Limit: 3, Channel: 'sms' });
    assert.deepEqual(
      first.data.map((m) => m.Text),
      ['r4', 'r3', 'r2'],
    );
    const second = await list({ Limit: 3, Channel: 'sms', Cursor: first.next });
    assert.deepEqual(
      second.data.map((m) => m.Text),
      ['r1', 'r0', 'YES'],
    );
    const byPhone = await list({ Phone: cn(603) });
    assert.deepEqual(
      byPhone.data.map((m) => m.Text),
      ['r3'],
    );
  });

  it('an SMS number belongs to one account; another account neither sees nor takes it', async () => {
    const key = await accountKey(gw, 8);
    const taken = await gw.admin('POST', '/admin/accounts/8/business-phones', {
      BusinessPhone: '10690001',
      Channel: 'sms',
    });
    assert.equal(taken.status, 409);
    assert.equal(taken.json.RetCode, RetCode.StateConflict);
    const own = await gw.admin('POST', '/admin/accounts/8/business-phones', {
      BusinessPhone: '10690008',
      Channel: 'sms',
    });
    assert.equal(own.status, 201, own.json.Message);
    assert.equal((await list({}, key, 8)).data.length, 0, 'none of account 1’s replies');
    await reply({ From: cn(700), To: '10690008', Text: 'mine' });
    const mine = await list({}, key, 8);
    assert.deepEqual(
      mine.data.map((m) => m.Text),
      ['mine'],
    );
    const theirs = await gw.api({ Action: 'ListInboundMessages', AccountId: 1 }, { key });
    assert.equal(theirs.json.RetCode, RetCode.PermissionDenied);
  });

  it('a reply to a number nobody registered is kept for the operator, not dropped', async () => {
    const { json } = await reply({ From: cn(701), To: '10699999', Text: 'hello?' });
    assert.equal(json.AccountId, null);
    const unrouted = await gw.admin('GET', '/admin/inbound/unrouted');
    assert.equal(unrouted.status, 200);
    const set = unrouted.json.DataSet as InboundItem[];
    assert.deepEqual(
      set.map((m) => [m.To, m.Text]),
      [['10699999', 'hello?']],
    );
    assert.ok(!(await list()).data.some((m) => m.Text === 'hello?'));
  });

  it('refuses what it cannot read, naming the field', async () => {
    const bad = await reply({ From: 'nobody', To: '10690001', Text: 'x' });
    assert.equal(bad.status, 400);
    assert.match(bad.json.Message, /^From /);
    const noText = await reply({ From: cn(702), To: '10690001' });
    assert.equal(noText.json.RetCode, RetCode.MissingParameter);
    assert.match(noText.json.Message, /Text/);
    const limit = await gw.api({ Action: 'ListInboundMessages', AccountId: 1, Limit: 0 });
    assert.equal(limit.json.RetCode, RetCode.InvalidParameter);
    assert.match(limit.json.Message, /^Limit must be a whole number from 1 to 1000/);
    const unauth = await gw.admin('POST', '/admin/simulator/inbound', {}, gw.key);
    assert.equal(unauth.status, 401, 'an account key is not the admin key');
  });
});
