import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually } from '../helpers/gateway.js';
import { cstr } from '../helpers/raw-smsc.js';
import { gatewayWithRawSmsc, type RawEnv } from '../helpers/smpp.js';
import { approvedTemplate, cn, finalReceipts, getReceipts, sendAll } from '../helpers/sending.js';

const RECEIPTED_MESSAGE_ID = 0x001e;
const MESSAGE_STATE = 0x0427;
const RECEIPT = 0x04;

const text = (id: string, stat: string, err = '000') =>
  Buffer.from(
    `id:${id} sub:001 dlvrd:000 submit date:2611220930 done date:2611220931 stat:${stat} err:${err} text:Hi`,
    'latin1',
  );

describe('SMPP delivery receipts from an independent SMSC', () => {
  let env: RawEnv;
  let tpl: string;
  let n = 300;
  before(async () => {
    env = await gatewayWithRawSmsc();
    tpl = await approvedTemplate(env.gw, 'Hi {1}');
  });
  after(() => env.close());

  /** Sends one message; answers its session and the message ids the raw SMSC gave its parts. */
  async function send(param = 'Ann'): Promise<{ session: string; ids: string[] }> {
    const phone = cn(n++);
    const before = env.raw.submits.length;
    const session = await sendAll(env.gw, [
      { TemplateId: tpl, Target: [{ Phone: phone, TemplateParams: [param] }] },
    ]);
    const parts = param.length > 150 ? 2 : 1;
    await eventually(
      async () => (env.raw.submits.length >= before + parts ? true : undefined),
      'the submits',
    );
    await eventually(async () => {
      const c = await env.gw.store.countByState();
      return !c.submitting && !c.queued ? true : undefined;
    }, 'the submit answers recorded');
    return { session, ids: issued.slice(-parts) };
  }

  const issued: string[] = [];
  let next = 0xa1b2c0;
  before(() => {
    env.raw.answer = () => {
      const messageId = (next++).toString(16).toUpperCase();
      issued.push(messageId);
      return { status: 0, messageId };
    };
  });

  it('matches a text-only receipt quoting the hex id in decimal with zero padding', async () => {
    const { session, ids } = await send();
    const decimal = BigInt(`0x${ids[0]}`).toString(10).padStart(12, '0');
    env.raw.deliver({ esmClass: RECEIPT, shortMessage: text(decimal, 'DELIVRD') });
    const [r] = await finalReceipts(env.gw, session, 1);
    assert.deepEqual([r?.ReceiptResult, r?.ReceiptCode], ['Success', 'DELIVRD:000']);
  });

  it('prefers the receipted_message_id and message_state TLVs', async () => {
    const { session, ids } = await send();
    env.raw.deliver({
      esmClass: RECEIPT,
      shortMessage: text('ffff', 'DELIVRD'),
      tlvs: [
        [RECEIPTED_MESSAGE_ID, cstr(`000${ids[0]?.toLowerCase()}`)],
        [MESSAGE_STATE, Buffer.from([3])],
      ],
    });
    const [r] = await finalReceipts(env.gw, session, 1);
    assert.deepEqual([r?.ReceiptResult, r?.ReceiptCode], ['Fail', 'EXPIRED:000']);
    assert.equal(r?.ReceiptDesc, 'expired before it could be delivered');
  });

  it('maps UNKNOWN to Unknow and keeps the err code', async () => {
    const { session, ids } = await send();
    env.raw.deliver({ esmClass: RECEIPT, shortMessage: text(ids[0] ?? '', 'UNKNOWN', '042') });
    const [r] = await finalReceipts(env.gw, session, 1);
    assert.deepEqual([r?.ReceiptResult, r?.ReceiptCode], ['Unknow', 'UNKNOWN:042']);
  });

  it('applies a receipt that arrives before the submit_sm_resp', async () => {
    const phone = cn(n++);
    env.raw.answer = () => {
      const messageId = (next++).toString(16).toUpperCase();
      return {
        status: 0,
        messageId,
        beforeAnswer: () =>
          env.raw.deliver({ esmClass: RECEIPT, shortMessage: text(messageId, 'REJECTD', '011') }),
      };
    };
    const session = await sendAll(env.gw, [
      { TemplateId: tpl, Target: [{ Phone: phone, TemplateParams: ['Bo'] }] },
    ]);
    const [r] = await finalReceipts(env.gw, session, 1);
    assert.deepEqual([r?.ReceiptResult, r?.ReceiptCode], ['Fail', 'REJECTD:011']);
    env.raw.answer = () => {
      const messageId = (next++).toString(16).toUpperCase();
      issued.push(messageId);
      return { status: 0, messageId };
    };
  });

  it('acknowledges a receipt for an id it never issued, and goes on working', async () => {
    const answered = env.raw.deliverAnswers.length;
    env.raw.deliver({ esmClass: RECEIPT, shortMessage: text('DEADBEEF99', 'DELIVRD') });
    await eventually(
      async () => (env.raw.deliverAnswers.length > answered ? true : undefined),
      'deliver_sm_resp',
    );
    assert.equal(env.raw.deliverAnswers.at(-1), 0, 'ESME_ROK');
    assert.ok(env.gw.pipeline.reports.unmatched >= 1, 'counted as unmatched');
    const { session, ids } = await send();
    env.raw.deliver({ esmClass: RECEIPT, shortMessage: text(ids[0] ?? '', 'DELIVRD') });
    assert.equal((await finalReceipts(env.gw, session, 1))[0]?.ReceiptResult, 'Success');
  });

  it('a duplicate receipt changes nothing', async () => {
    const { session, ids } = await send();
    env.raw.deliver({ esmClass: RECEIPT, shortMessage: text(ids[0] ?? '', 'DELIVRD') });
    const [first] = await finalReceipts(env.gw, session, 1);
    env.raw.deliver({ esmClass: RECEIPT, shortMessage: text(ids[0] ?? '', 'UNDELIV', '001') });
    const answered = env.raw.deliverAnswers.length;
    await eventually(
      async () => (env.raw.deliverAnswers.length >= answered ? true : undefined),
      'deliver_sm_resp',
    );
    const again = await getReceipts(env.gw, [session]);
    assert.deepEqual(again.Data?.[0]?.ReceiptSet, [first]);
  });

  it('a multipart message fails with its first failing part once all parts reported', async () => {
    const { session, ids } = await send('w'.repeat(200));
    assert.equal(ids.length, 2);
    env.raw.deliver({ esmClass: RECEIPT, shortMessage: text(ids[1] ?? '', 'UNDELIV', '013') });
    env.raw.deliver({ esmClass: RECEIPT, shortMessage: text(ids[0] ?? '', 'DELIVRD') });
    const [r] = await finalReceipts(env.gw, session, 1);
    assert.deepEqual([r?.ReceiptResult, r?.ReceiptCode, r?.CostCount], ['Fail', 'UNDELIV:013', 2]);
  });
});
