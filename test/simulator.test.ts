import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  approvedTemplate,
  cn,
  finalReceipts,
  inbox,
  receiptOf,
  registerBusinessPhone,
  registerSenderId,
  sendAll,
  sentMessageId,
  messageWhen,
  BUSINESS_PHONE,
  type InboxItem,
} from './helpers/sending.js';

describe('the simulator channel', () => {
  let gw: TestGateway;
  let tpl: string;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0, receiptTimeoutS: 1, templateReview: 'manual' });
    tpl = await approvedTemplate(gw, 'Hello {1}, your code is {2}');
    await registerSenderId(gw, 'WIREBIRD');
    await registerSenderId(gw, 'SHOP');
    await registerBusinessPhone(gw);
  });
  after(() => gw.close());

  /** The inbox of `phone` once it holds `count` entries. */
  function inboxOf(phone: string, count: number): Promise<InboxItem[]> {
    return eventually(async () => {
      const items = await inbox(gw, phone);
      return items.length >= count ? items : undefined;
    }, `${count} inbox entries for ${phone}`);
  }

  it('keeps what it delivered per number, with the rendered text and the sender', async () => {
    const session = await sendAll(gw, [
      {
        TemplateId: tpl,
        SenderId: 'WIREBIRD',
        Target: [
          { Phone: cn(0), TemplateParams: ['Ann', '1111'] },
          { Phone: '13800000000', TemplateParams: ['Bob', '2222'], SenderId: 'SHOP' },
          { Phone: cn(7), TemplateParams: ['Cid', '3333'] },
        ],
      },
    ]);
    await finalReceipts(gw, session, 3);
    const items = await inboxOf(cn(0), 2);
    assert.ok(
      items.every((i) => i.to === cn(0)),
      'the inbox lists only that number',
    );
    const sms = items.filter((i) => i.kind === 'sms').map((i) => [i.from, i.body]);
    assert.deepEqual(
      sms.sort(),
      [
        ['SHOP', 'Hello Bob, your code is 2222'],
        ['WIREBIRD', 'Hello Ann, your code is 1111'],
      ],
      'national and E.164 forms of one number share an inbox; a target SenderId wins',
    );
    const other = await inbox(gw, cn(7));
    assert.deepEqual(
      other.map((i) => i.body),
      ['Hello Cid, your code is 3333'],
    );
    // The inbox is found by the number however it is written.
    const national = await inbox(gw, cn(7).replace('+86', ''));
    assert.deepEqual(
      national.map((i) => i.body),
      ['Hello Cid, your code is 3333'],
    );
  });

  it('records segments and encoding of each delivery', async () => {
    const chinese = await approvedTemplate(gw, '验证码{1}');
    const session = await sendAll(gw, [
      { TemplateId: chinese, Target: [{ Phone: cn(8), TemplateParams: ['文'.repeat(70)] }] },
    ]);
    await finalReceipts(gw, session, 1);
    const [item] = await inboxOf(cn(8), 1);
    assert.equal(item?.body, '验证码' + '文'.repeat(70));
    assert.equal(item.encoding, 'ucs2');
    assert.equal(item.segments, 2);
  });

  it('never delivers to a 0002 number, which is refused at submission', async () => {
    const session = await sendAll(gw, [
      { TemplateId: tpl, Target: [{ Phone: cn(2), TemplateParams: ['Ann', '1'] }] },
    ]);
    const set = await finalReceipts(gw, session, 1);
    assert.equal(receiptOf(set, cn(2)).ReceiptResult, 'SubmitFail');
    const id = await sentMessageId(gw, { To: cn(2) });
    await messageWhen(gw, id, 'failed');
    assert.deepEqual(await inbox(gw, cn(2)), []);
  });

  it('delivers to 0001 (then reports Fail) and to 0003 (never reports)', async () => {
    const session = await sendAll(gw, [
      {
        TemplateId: tpl,
        Target: [
          { Phone: cn(1), TemplateParams: ['Ann', '1'] },
          { Phone: cn(3), TemplateParams: ['Bob', '3'] },
        ],
      },
    ]);
    const set = await finalReceipts(gw, session, 2);
    assert.equal(receiptOf(set, cn(1)).ReceiptResult, 'Fail');
    assert.equal(receiptOf(set, cn(3)).ReceiptResult, 'Unknow');
    assert.deepEqual(
      (await inbox(gw, cn(1))).map((i) => i.body),
      ['Hello Ann, your code is 1'],
    );
    assert.deepEqual(
      (await inbox(gw, cn(3))).map((i) => i.body),
      ['Hello Bob, your code is 3'],
    );
  });

  it('keeps business messages in the inbox from the business phone with their content', async () => {
    const to = cn(9);
    const id = await sentMessageId(gw, {
      To: to,
      Content: JSON.stringify({ body: 'your order shipped' }),
    });
    await messageWhen(gw, id, 'delivered');
    const [item] = await inboxOf(to, 1);
    assert.equal(item?.kind, 'business');
    assert.equal(item.from, BUSINESS_PHONE);
    assert.deepEqual(JSON.parse(item.body), {
      type: 'text',
      text: { body: 'your order shipped' },
    });
  });
});
