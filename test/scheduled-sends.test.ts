import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { ManualTime } from './helpers/manual-time.js';
import { parseExposition, valueOf } from './helpers/prometheus.js';
import {
  accountKey,
  approvedTemplate,
  cn,
  finalReceipts,
  getReceipts,
  registerBusinessPhone,
  sentMessageId,
  storedMessages,
} from './helpers/sending.js';
import { keyPair, postForm, signedForm } from './helpers/ucloud.js';

const HOUR_S = 3600;

describe('SendAt, ValidityPeriod and CancelScheduledMessages (the clock moved)', () => {
  const time = new ManualTime(Date.now());
  let gw: TestGateway;
  let tpl: string;
  before(async () => {
    const config = {
      simDelayMs: 0,
      acceptThreads: 0,
      templateReview: 'manual',
      receiptTimeoutS: 600,
    };
    gw = await startTestGateway(config, undefined, { clock: time, scheduler: time });
    tpl = await approvedTemplate(gw, 'Your appointment is at {1}');
    await registerBusinessPhone(gw);
  });
  after(() => gw.close());

  const nowS = () => Math.floor(time.now() / 1000);
  /** SendBatchUSMSMessage with `fields` beside TaskContent. */
  const sendBatch = async (_gw: TestGateway, task: unknown, fields: Record<string, unknown>) => {
    const body = { Action: 'SendBatchUSMSMessage', AccountId: 1, TaskContent: task, ...fields };
    const { json } = await gw.api(body);
    return json as typeof json & { SessionNo: string };
  };
  const send = async (phone: string, fields: Record<string, unknown>) => {
    const task = [{ TemplateId: tpl, Target: [{ Phone: phone, TemplateParams: ['9:00'] }] }];
    const json = await sendBatch(gw, task, fields);
    assert.equal(json.RetCode, 0, json.Message);
    return json.SessionNo;
  };
  const queued = async () => (await gw.store.countByState()).queued ?? 0;
  const heldGauge = async () => {
    const res = await fetch(`${gw.url}/metrics`, {
      headers: { authorization: `Bearer ${gw.adminKey}` },
    });
    return valueOf(parseExposition(await res.text()), 'wirebird_messages_held');
  };

  it('holds a message until SendAt, then sends it', async () => {
    const before = await queued();
    const session = await send(cn(801), { SendAt: nowS() + HOUR_S });
    assert.equal(await queued(), before + 1, 'held');
    assert.equal(await heldGauge(), 1, 'wirebird_messages_held');
    await time.jump(HOUR_S * 1000 - 10_000);
    assert.equal(await queued(), before + 1, 'still held 10 s before');
    await time.jump(10_000);
    const [receipt] = await finalReceipts(gw, session, 1);
    assert.equal(receipt?.ReceiptResult, 'Success');
  });

  it('holds a SendAt exactly maxScheduleDays (35) ahead; one second more is refused', async () => {
    const limit = nowS() + 35 * 24 * HOUR_S;
    const task = [{ TemplateId: tpl, Target: [{ Phone: cn(810), TemplateParams: ['1'] }] }];
    const held = await sendBatch(gw, task, { SendAt: limit });
    assert.equal(held.RetCode, 0, held.Message);
    const over = await sendBatch(gw, task, { SendAt: limit + 1 });
    assert.equal(over.RetCode, RetCode.InvalidParameter);
    assert.match(over.Message, /^SendAt must be at most 35 days ahead/);
    assert.doesNotMatch(over.Message, /milliseconds/);
    const ms = await sendBatch(gw, task, { SendAt: time.now() + 60_000 });
    assert.match(ms.Message, /it looks like milliseconds: send seconds/);
    const cancel = {
      Action: 'CancelScheduledMessages',
      AccountId: 1,
      SessionNoSet: [held.SessionNo],
    };
    assert.equal((await gw.api(cancel)).json.RetCode, 0);
  });

  it('refunds a prepaid message that expires, once: the ledger and the balance agree', async () => {
    const key = await accountKey(gw, 3);
    const own = await approvedTemplate(gw, 'Your code is {1}', { accountId: 3, key });
    const policy = await gw.admin('PUT', '/admin/accounts/3/policy', { Prepaid: true });
    assert.equal(policy.status, 200, policy.json.Message);
    await gw.admin('POST', '/admin/accounts/3/credits', { CostCount: 5, Reference: 'inv' });
    const task = [{ TemplateId: own, Target: [{ Phone: cn(811), TemplateParams: ['1'] }] }];
    const body = { Action: 'SendBatchUSMSMessage', AccountId: 3, TaskContent: task };
    const sent = await gw.api({ ...body, SendAt: nowS() + 60, ValidityPeriod: 30 }, { key });
    assert.equal(sent.json.RetCode, 0, sent.json.Message);
    const session = sent.json.SessionNo as string;
    const balance = async () => (await gw.admin('GET', '/admin/accounts/3/credits')).json;
    assert.equal((await balance()).Balance, 4);
    await time.jump(91_000);
    const refunded = async () => {
      const l = await balance();
      return (l.Entries as { Kind: string }[]).some((e) => e.Kind === 'refund') ? l : undefined;
    };
    const ledger = await eventually(refunded, 'the refund of the expired message');
    await time.jump(60_000);
    assert.deepEqual((await balance()).Entries, ledger.Entries, 'refunded once');
    const entries = ledger.Entries as { Kind: string; CostCount: number; Reference: string }[];
    assert.deepEqual(
      entries.filter((e) => e.Reference === session).map((e) => [e.Kind, e.CostCount]),
      [
        ['refund', 1],
        ['debit', -1],
      ],
    );
    assert.equal(ledger.Balance, 5);
    assert.equal(
      entries.reduce((n, e) => n + e.CostCount, 0),
      ledger.Balance,
    );
  });

  it('shows held messages: HeldSet in GetUSMSSendReceipt, ListScheduledMessages by page', async () => {
    const at = nowS() + 2 * HOUR_S;
    const task = [
      {
        TemplateId: tpl,
        Target: [cn(812), cn(813), cn(814)].map((Phone) => ({ Phone, TemplateParams: ['1'] })),
      },
    ];
    const session = (await sendBatch(gw, task, { SendAt: at, ValidityPeriod: 600 })).SessionNo;
    const { json } = await gw.api({
      Action: 'GetUSMSSendReceipt',
      AccountId: 1,
      SessionNoSet: [session],
    });
    type Session = { ReceiptSet: unknown[]; HeldSet?: Record<string, unknown>[] };
    const [data] = json.Data as Session[];
    assert.ok(data);
    assert.deepEqual(data.ReceiptSet, [], 'no receipt yet');
    assert.deepEqual(
      (data.HeldSet ?? []).map((h) => [h.Phone, h.SendAt, h.ExpireTime]),
      [cn(812), cn(813), cn(814)].map((p) => [p, at, at + 600]),
    );
    const list = (fields: Record<string, unknown>, key?: string) =>
      gw.api(
        { Action: 'ListScheduledMessages', AccountId: 1, SessionNo: session, ...fields },
        key ? { key } : {},
      );
    const first = await list({ Limit: 2 });
    assert.equal(first.json.RetCode, 0, first.json.Message);
    assert.equal((first.json.Data as unknown[]).length, 2);
    const rest = await list({ Limit: 2, Cursor: first.json.NextCursor });
    assert.deepEqual(
      (rest.json.Data as { Phone: string }[]).map((h) => h.Phone),
      [cn(814)],
    );
    assert.equal(rest.json.NextCursor, '');
    const theirs = await list({ AccountId: 2 }, await accountKey(gw, 2));
    assert.deepEqual(theirs.json.Data, [], 'another account sees none of them');
    const bad = await list({ Limit: 0 });
    assert.equal(bad.json.RetCode, RetCode.InvalidParameter);
    assert.match(bad.json.Message, /^Limit must be a whole number from 1 to 1000/);
    const cancel = { Action: 'CancelScheduledMessages', AccountId: 1, SessionNoSet: [session] };
    assert.equal((await gw.api(cancel)).json.RetCode, 0);
  });

  it('sends at once when SendAt has passed or is a few seconds away', async () => {
    for (const at of [0, nowS() - 60, nowS() + 3]) {
      const [receipt] = await finalReceipts(gw, await send(cn(802), { SendAt: at }), 1);
      assert.equal(receipt?.ReceiptResult, 'Success');
    }
  });

  it('expires a message its ValidityPeriod passed: Fail, EXPIRED, CostCount 0, never sent', async () => {
    // Due in a minute, valid 30 s from then; the clock jumps past both before any claim.
    const session = await send(cn(803), { SendAt: nowS() + 60, ValidityPeriod: 30 });
    await time.jump(91_000);
    const [receipt] = await finalReceipts(gw, session, 1);
    assert.deepEqual(
      [receipt?.ReceiptResult, receipt?.ReceiptCode, receipt?.CostCount],
      ['Fail', 'EXPIRED', 0],
    );
    const inbox = await gw.admin('GET', `/admin/inbox?phone=${encodeURIComponent(cn(803))}`);
    assert.deepEqual(inbox.json.DataSet, [], 'it never reached the phone');
  });

  it('cancels held messages by session and by number; another account sees nothing of them', async () => {
    const at = nowS() + HOUR_S;
    const task = [
      {
        TemplateId: tpl,
        Target: [cn(804), cn(805), cn(806)].map((Phone) => ({ Phone, TemplateParams: ['1'] })),
      },
    ];
    const session = (await sendBatch(gw, task, { SendAt: at })).SessionNo;
    const theirs = await accountKey(gw, 2);
    const other = await gw.api(
      { Action: 'CancelScheduledMessages', AccountId: 2, SessionNoSet: [session] },
      { key: theirs },
    );
    assert.deepEqual(other.json.Data, []);
    const one = await gw.api({
      Action: 'CancelScheduledMessages',
      AccountId: 1,
      SessionNoSet: [session],
      Phones: [cn(804)],
    });
    assert.deepEqual(one.json.Data, [{ SessionNo: session, CanceledCount: 1 }]);
    const rest = await gw.api({
      Action: 'CancelScheduledMessages',
      AccountId: 1,
      SessionNoSet: [session],
    });
    assert.deepEqual(rest.json.Data, [{ SessionNo: session, CanceledCount: 2 }]);
    const receipts = await finalReceipts(gw, session, 3);
    assert.ok(
      receipts.every(
        (r) => r.ReceiptResult === 'Fail' && r.ReceiptCode === 'CANCELED' && r.CostCount === 0,
      ),
    );
  });

  it('holds, and cancels by MessageId, a business message', async () => {
    const id = await sentMessageId(gw, { To: cn(807), SendAt: nowS() + HOUR_S });
    const { json } = await gw.api({
      Action: 'CancelScheduledMessages',
      AccountId: 1,
      MessageIds: [id, 'nope'],
    });
    assert.deepEqual(json.Messages, [{ MessageId: id, Canceled: true }]);
    const view = await gw.api({ Action: 'GetMessage', AccountId: 1, MessageId: id });
    const data = view.json.Data as { Status: string; History: { Status: string; Code: string }[] };
    assert.equal(data.Status, 'failed');
    assert.equal(data.History.at(-1)?.Code, 'CANCELED');
  });

  it('takes SendAt in the UCloud dialect as the digits its form sends', async () => {
    const pair = await keyPair(gw);
    const form = signedForm(
      {
        Action: 'SendUSMSMessage',
        PhoneNumbers: [cn(808)],
        TemplateId: tpl,
        TemplateParams: ['1'],
        SendAt: String(nowS() + HOUR_S),
      },
      pair,
    );
    const { json } = await postForm(gw, form);
    assert.equal(json.RetCode, 0, json.Message);
    const receipts = await getReceipts(gw, [json.SessionNo as string]);
    assert.deepEqual(receipts.Data?.[0]?.ReceiptSet, [], 'held, not sent');
  });

  describe('refuses a bad value, naming the field, storing nothing', () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      [
        'SendAt as a string',
        { SendAt: '1800000000' },
        /^SendAt must be Unix seconds as a JSON number, not a string/,
      ],
      ['SendAt negative', { SendAt: -1 }, /^SendAt must be Unix seconds, 0 or more/],
      ['SendAt a fraction', { SendAt: 1.5 }, /^SendAt must be when to send: Unix seconds/],
      ['SendAt past the limit', { SendAt: 9_999_999_999 }, /^SendAt must be at most 35 days ahead/],
      [
        'ValidityPeriod too short',
        { ValidityPeriod: 29 },
        /^ValidityPeriod must be a whole number of seconds from 30 to 259200/,
      ],
      [
        'ValidityPeriod too long',
        { ValidityPeriod: 259_201 },
        /^ValidityPeriod must be a whole number/,
      ],
      [
        'ValidityPeriod as a string',
        { ValidityPeriod: '60' },
        /^ValidityPeriod must be .* not a string/,
      ],
    ];
    for (const [what, fields, message] of cases) {
      it(what, async () => {
        const before = await storedMessages(gw);
        const task = [{ TemplateId: tpl, Target: [{ Phone: cn(809), TemplateParams: ['1'] }] }];
        const json = await sendBatch(gw, task, fields);
        assert.equal(json.RetCode, RetCode.InvalidParameter, json.Message);
        assert.match(json.Message, message);
        assert.equal(await storedMessages(gw), before);
      });
    }

    it('CancelScheduledMessages naming more than 1000 session and number pairs', async () => {
      const { json } = await gw.api({
        Action: 'CancelScheduledMessages',
        AccountId: 1,
        SessionNoSet: Array.from({ length: 11 }, (_, i) => `s${i}`),
        Phones: Array.from({ length: 100 }, (_, i) => cn(9000 + i)),
      });
      assert.equal(json.RetCode, RetCode.LimitExceeded);
      assert.match(json.Message, /^SessionNoSet × Phones names 1100 pairs; at most 1000/);
    });

    it('CancelScheduledMessages with neither SessionNoSet nor MessageIds', async () => {
      const { json } = await gw.api({ Action: 'CancelScheduledMessages', AccountId: 1 });
      assert.equal(json.RetCode, RetCode.MissingParameter);
      assert.match(json.Message, /^SessionNoSet/);
    });
  });
});
