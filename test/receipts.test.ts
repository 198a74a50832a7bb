import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RetCode } from '../src/domain/errors.js';
import type { ReceiptPerPhone } from '../src/domain/receipts/receipt.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { ManualTime } from './helpers/manual-time.js';
import {
  accountKey,
  approvedTemplate,
  cn,
  fetchReceipts,
  finalReceipts,
  getReceipts,
  numbers,
  receiptOf,
  registerSenderId,
  sendAll,
} from './helpers/sending.js';

describe('GetUSMSSendReceipt', () => {
  let gw: TestGateway;
  let tpl: string;
  let plain: string;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0, receiptTimeoutS: 1, templateReview: 'manual' });
    tpl = await approvedTemplate(gw, 'Hello {1}, your code is {2}');
    plain = await approvedTemplate(gw, 'Your parcel has arrived');
    await registerSenderId(gw, 'WIREBIRD');
  });
  after(() => gw.close());

  describe('results of the simulator’s test numbers', () => {
    it('gives one receipt per message: Success, Fail (0001), SubmitFail (0002), Unknow (0003)', async () => {
      const startS = Math.floor(Date.now() / 1000);
      const session = await sendAll(gw, [
        {
          TemplateId: tpl,
          SenderId: 'WIREBIRD',
          Target: [0, 1, 2, 3].map((n) => ({
            Phone: cn(n),
            TemplateParams: ['Ann', '42'],
            UserId: `user-${n}`,
          })),
        },
      ]);
      // 0003 is never reported: it only becomes final after the 1 s receipt timeout.
      const set = await finalReceipts(gw, session, 4);
      const endS = Math.ceil(Date.now() / 1000);
      assert.equal(set.length, 4, 'one ReceiptPerPhone per message');
      const expected = [
        [cn(0), 'Success'],
        [cn(1), 'Fail'],
        [cn(2), 'SubmitFail'],
        [cn(3), 'Unknow'],
      ] as const;
      for (const [phone, result] of expected) {
        const r = receiptOf(set, phone);
        assert.equal(r.ReceiptResult, result, phone);
        assert.equal(r.UserId, `user-${phone.slice(-1)}`);
        assert.equal(r.CostCount, 1);
        assert.ok(r.ReceiptCode, `${phone} has a ReceiptCode`);
        assert.ok(r.ReceiptDesc, `${phone} has a ReceiptDesc`);
        assert.ok(Number.isInteger(r.ReceiptTime), 'ReceiptTime is an int');
        assert.ok(
          r.ReceiptTime >= startS && r.ReceiptTime <= endS,
          `ReceiptTime ${r.ReceiptTime} is in Unix seconds`,
        );
      }
      const codes = new Set(set.map((r) => r.ReceiptCode));
      assert.equal(codes.size, 4, 'each outcome has its own ReceiptCode');
    });

    it('lists only final messages: a 0003 number is absent until the timeout makes it Unknow', async () => {
      const session = await sendAll(gw, [
        { TemplateId: plain, Target: [{ Phone: cn(0) }, { Phone: cn(3) }] },
      ]);
      const first = await finalReceipts(gw, session, 1);
      if (first.length === 1) assert.equal(first[0]?.Phone, cn(0));
      const all = await finalReceipts(gw, session, 2);
      assert.equal(receiptOf(all, cn(3)).ReceiptResult, 'Unknow');
    });
  });

  describe('CostCount', () => {
    let oneVar: string;
    let chinese: string;
    before(async () => {
      oneVar = await approvedTemplate(gw, 'A{1}');
      chinese = await approvedTemplate(gw, '中{1}');
    });

    /** CostCount of the rendered text `template` with `param`, through a real send. */
    async function costOf(templateId: string, param: string): Promise<number> {
      const session = await sendAll(gw, [
        { TemplateId: templateId, Target: [{ Phone: cn(50), TemplateParams: [param] }] },
      ]);
      const [receipt] = await finalReceipts(gw, session, 1);
      assert.equal(receipt?.ReceiptResult, 'Success');
      return receipt.CostCount;
    }

    it('counts 160 GSM characters as 1 and 161 as 2', async () => {
      assert.equal(await costOf(oneVar, 'x'.repeat(159)), 1);
      assert.equal(await costOf(oneVar, 'x'.repeat(160)), 2);
    });

    it('counts 70 Chinese characters as 1 and 71 as 2', async () => {
      assert.equal(await costOf(chinese, '文'.repeat(69)), 1);
      assert.equal(await costOf(chinese, '文'.repeat(70)), 2);
    });

    it('counts an extension character as two septets', async () => {
      assert.equal(await costOf(oneVar, '€'.repeat(79) + 'x'), 1, '160 septets');
      assert.equal(await costOf(oneVar, '€'.repeat(80)), 2, '161 septets');
    });

    it('counts an emoji as a surrogate pair of UCS-2', async () => {
      assert.equal(await costOf(chinese, '😀'.repeat(34) + 'x'), 1, '70 code units');
      assert.equal(await costOf(chinese, '😀'.repeat(35)), 2, '71 code units');
    });

    it('counts long texts per part: 306 GSM chars are 2 parts, 307 are 3', async () => {
      assert.equal(await costOf(oneVar, 'x'.repeat(305)), 2);
      assert.equal(await costOf(oneVar, 'x'.repeat(306)), 3);
    });
  });

  describe('SessionNoSet', () => {
    it('refuses an empty SessionNoSet with 18003', async () => {
      const json = await getReceipts(gw, []);
      assert.equal(json.RetCode, RetCode.InvalidParameter);
      assert.match(json.Message, /SessionNoSet/);
    });

    it('refuses 101 session numbers with 18003', async () => {
      const json = await getReceipts(
        gw,
        Array.from({ length: 101 }, (_, i) => `s-${i}`),
      );
      assert.equal(json.RetCode, RetCode.InvalidParameter);
      assert.match(json.Message, /SessionNoSet/);
    });

    it('refuses a missing SessionNoSet with 18001', async () => {
      const { json } = await gw.api({ Action: 'GetUSMSSendReceipt', AccountId: 1 });
      assert.equal(json.RetCode, RetCode.MissingParameter);
      assert.match(json.Message, /SessionNoSet/);
    });

    it('accepts 100 session numbers and answers the known one', async () => {
      const session = await sendAll(gw, [{ TemplateId: plain, Target: [{ Phone: cn(60) }] }]);
      await finalReceipts(gw, session, 1);
      const asked = [...Array.from({ length: 99 }, (_, i) => `unknown-${i}`), session];
      const json = await getReceipts(gw, asked);
      assert.equal(json.RetCode, 0, json.Message);
      assert.deepEqual(
        json.Data?.map((d) => d.SessionNo),
        [session],
      );
    });

    it('leaves an unknown session out of Data', async () => {
      const json = await getReceipts(gw, ['no-such-session']);
      assert.equal(json.RetCode, 0, json.Message);
      assert.deepEqual(json.Data, []);
    });

    it('leaves another account’s session out of Data', async () => {
      const session = await sendAll(gw, [{ TemplateId: plain, Target: [{ Phone: cn(61) }] }]);
      await finalReceipts(gw, session, 1);
      const key2 = await accountKey(gw, 2);
      const json = await getReceipts(gw, [session], { accountId: 2, key: key2 });
      assert.equal(json.RetCode, 0, json.Message);
      assert.deepEqual(json.Data, []);
    });

    it('answers a session asked twice once, and a large answer whole, as JSON', async () => {
      const big = await sendAll(gw, [
        { TemplateId: plain, Target: numbers(1000, 5000).map((Phone) => ({ Phone })) },
      ]);
      const small = await sendAll(gw, [{ TemplateId: plain, Target: [{ Phone: cn(73) }] }]);
      await finalReceipts(gw, big, 1000);
      await finalReceipts(gw, small, 1);
      const res = await fetchReceipts(gw, [small, big, small]);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
      const json = (await res.json()) as {
        RetCode: number;
        Action: string;
        Data: { SessionNo: string; ReceiptSet: ReceiptPerPhone[] }[];
      };
      assert.equal(json.Action, 'GetUSMSSendReceiptResponse');
      assert.equal(json.RetCode, 0);
      assert.deepEqual(
        json.Data.map((d) => d.SessionNo),
        [small, big],
      );
      assert.deepEqual(
        json.Data[1]?.ReceiptSet.map((r) => r.Phone),
        numbers(1000, 5000),
        'every receipt of the large session, oldest message first',
      );
    });

    it('answers several sessions in the order asked', async () => {
      const sessions: string[] = [];
      for (const n of [70, 71, 72]) {
        sessions.push(
          await sendAll(gw, [{ TemplateId: plain, Target: [{ Phone: cn(n), UserId: `u${n}` }] }]),
        );
      }
      for (const s of sessions) await finalReceipts(gw, s, 1);
      const asked = [sessions[2], 'unknown', sessions[0], sessions[1]];
      const json = await getReceipts(gw, asked);
      assert.equal(json.RetCode, 0, json.Message);
      assert.deepEqual(
        json.Data?.map((d) => [d.SessionNo, d.ReceiptSet.map((r) => r.UserId)]),
        [
          [sessions[2], ['u72']],
          [sessions[0], ['u70']],
          [sessions[1], ['u71']],
        ],
      );
    });
  });
});

describe('receipts with the clock moved, not waited for', () => {
  const time = new ManualTime(Date.now());
  let gw: TestGateway;
  before(async () => {
    // A ten-minute receipt timeout, reached in no time: the sweeper runs when the clock is moved.
    const config = {
      simDelayMs: 0,
      receiptTimeoutS: 600,
      templateReview: 'manual',
      acceptThreads: 0,
    };
    gw = await startTestGateway(config, undefined, { clock: time, scheduler: time });
  });
  after(() => gw.close());

  it('a 0003 number becomes Unknow once the timeout has passed on the gateway clock', async () => {
    const plain = await approvedTemplate(gw, 'Your parcel is on its way');
    const session = await sendAll(gw, [{ TemplateId: plain, Target: [{ Phone: cn(3) }] }]);
    const submitted = await eventually(
      async () => ((await gw.store.countByState()).submitted === 1 ? true : undefined),
      'the submit',
    );
    assert.ok(submitted);
    await time.advance(599_000);
    assert.deepEqual(await finalReceipts(gw, session, 0), [], 'not final a second early');
    await time.advance(61_000);
    const [receipt] = await finalReceipts(gw, session, 1);
    assert.equal(receipt?.ReceiptResult, 'Unknow');
    assert.equal(receipt.ReceiptTime, Math.floor(time.now() / 1000) - 60, 'at the sweep, not now');
  });
});
