import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, THREADED, type TestGateway } from './helpers/gateway.js';
import {
  UUID,
  UUID_V7,
  approvedTemplate,
  batchBody,
  cn,
  finalReceipts,
  numbers,
  receiptOf,
  registerSenderId,
  sendAll,
  sendBatch,
  storedMessages,
} from './helpers/sending.js';

describe('SendBatchUSMSMessage', () => {
  let gw: TestGateway;
  let tpl: string;
  let plain: string;
  before(async () => {
    gw = await startTestGateway({
      ...THREADED,
      simDelayMs: 0,
      receiptTimeoutS: 1,
      templateReview: 'manual',
    });
    tpl = await approvedTemplate(gw, 'Hello {1}, your code is {2}');
    plain = await approvedTemplate(gw, 'Your parcel has arrived');
    await registerSenderId(gw, 'WIREBIRD');
  });
  after(() => gw.close());

  /** Asserts a whole-request refusal with `code`, naming `field`, and that nothing was stored. */
  async function refused(taskContent: unknown, code: number, field: string | RegExp) {
    const before = await storedMessages(gw);
    const json = await sendBatch(gw, taskContent);
    assert.equal(json.RetCode, code, json.Message);
    if (typeof field === 'string') assert.ok(json.Message.includes(field), json.Message);
    else assert.match(json.Message, field);
    assert.equal(json.SessionNo, undefined);
    assert.equal(await storedMessages(gw), before, 'a refused request stores nothing');
  }

  describe('the answer', () => {
    it('answers SuccessCount, a SessionNo, a UUID ReqUuid and an empty Message when all are sent', async () => {
      const before = await storedMessages(gw);
      const json = await sendBatch(gw, [
        {
          TemplateId: tpl,
          SenderId: 'WIREBIRD',
          Target: [
            { Phone: cn(10), TemplateParams: ['Ann', '1234'], UserId: 'ann' },
            { Phone: cn(11), TemplateParams: ['Bob', '5678'], UserId: 'bob' },
          ],
        },
        { TemplateId: plain, Target: [{ Phone: cn(12) }] },
      ]);
      assert.equal(json.RetCode, 0, json.Message);
      assert.equal(json.Message, '');
      assert.equal(json.SuccessCount, 3);
      // A UUID ordered by time (version 7): its rows are written at their indexes' end.
      assert.match(json.SessionNo as string, UUID_V7);
      assert.match(json.ReqUuid as string, UUID);
      assert.deepEqual(json.FailContent, []);
      assert.equal(await storedMessages(gw), before + 3, 'three messages stored before the answer');

      const set = await finalReceipts(gw, json.SessionNo as string, 3);
      assert.deepEqual(
        set.map((r) => [r.Phone, r.UserId, r.ReceiptResult]),
        [
          [cn(10), 'ann', 'Success'],
          [cn(11), 'bob', 'Success'],
          [cn(12), '', 'Success'],
        ],
      );
    });

    it('answers RetCode 0 with a Message naming how many failed when some failed', async () => {
      const json = await sendBatch(gw, [
        {
          TemplateId: tpl,
          Target: [
            { Phone: cn(13), TemplateParams: ['Ann', '1'] },
            { Phone: 'not a phone', TemplateParams: ['Bob', '2'] },
          ],
        },
        { TemplateId: 'UTANOSUCHTEMPLATE', Target: [{ Phone: cn(14) }, { Phone: cn(15) }] },
      ]);
      assert.equal(json.RetCode, 0, json.Message);
      assert.match(json.Message, /\b3\b/, 'Message says 3 numbers failed');
      assert.match(json.Message, /\b4\b/, 'Message says out of 4');
      assert.equal(json.SuccessCount, 1);
      assert.ok(json.SessionNo);
      assert.match(json.ReqUuid as string, UUID);
      assert.equal(json.FailContent?.length, 2);
      const failedPhones = json.FailContent.flatMap((b) => b.Target.map((t) => t.Phone));
      assert.deepEqual(failedPhones, ['not a phone', cn(14), cn(15)]);
    });

    it('gives every request its own ReqUuid and SessionNo', async () => {
      const group = [{ TemplateId: plain, Target: [{ Phone: cn(16) }] }];
      const a = await sendBatch(gw, group);
      const b = await sendBatch(gw, group);
      assert.notEqual(a.ReqUuid, b.ReqUuid);
      assert.notEqual(a.SessionNo, b.SessionNo);
    });
  });

  describe('the 1000-number limit', () => {
    it('refuses more than 1000 numbers across groups with 18019 and stores nothing', async () => {
      await refused(
        [
          { TemplateId: plain, Target: numbers(600).map((Phone) => ({ Phone })) },
          { TemplateId: plain, Target: numbers(401, 600).map((Phone) => ({ Phone })) },
        ],
        RetCode.LimitExceeded,
        /1001/,
      );
    });

    it('refuses 1001 numbers even when most of them would fail', async () => {
      await refused(
        [{ TemplateId: 'UTANOSUCHTEMPLATE', Target: numbers(1001).map((Phone) => ({ Phone })) }],
        RetCode.LimitExceeded,
        /1000/,
      );
    });

    it('accepts exactly 1000 numbers across groups and stores all of them', async () => {
      const before = await storedMessages(gw);
      const json = await sendBatch(gw, [
        { TemplateId: plain, Target: numbers(600).map((Phone) => ({ Phone })) },
        { TemplateId: plain, Target: numbers(400, 600).map((Phone) => ({ Phone })) },
      ]);
      assert.equal(json.RetCode, 0, json.Message);
      assert.equal(json.SuccessCount, 1000);
      assert.deepEqual(json.FailContent, []);
      assert.equal(await storedMessages(gw), before + 1000);
    });
  });

  describe('request-level validation', () => {
    it('refuses a missing TaskContent with 18001', async () => {
      const before = await storedMessages(gw);
      const { json } = await gw.api({ Action: 'SendBatchUSMSMessage', AccountId: 1 });
      assert.equal(json.RetCode, RetCode.MissingParameter);
      assert.match(json.Message, /TaskContent/);
      assert.equal(await storedMessages(gw), before);
    });

    it('refuses an empty TaskContent with 18003', async () => {
      await refused([], RetCode.InvalidParameter, 'TaskContent');
    });

    it('refuses a TaskContent that is not an array with 18003', async () => {
      await refused({ TemplateId: plain }, RetCode.InvalidParameter, 'TaskContent');
    });

    it('refuses an empty Target with 18003 naming the group', async () => {
      await refused(
        [
          { TemplateId: plain, Target: [{ Phone: cn(20) }] },
          { TemplateId: plain, Target: [] },
        ],
        RetCode.InvalidParameter,
        'TaskContent[1].Target',
      );
    });

    it('refuses a target without Phone with 18001 naming TaskContent[0].Target[0].Phone', async () => {
      await refused(
        [{ TemplateId: plain, Target: [{ UserId: 'no phone' }, { Phone: cn(21) }] }],
        RetCode.MissingParameter,
        'TaskContent[0].Target[0].Phone',
      );
    });

    it('refuses a group without TemplateId with 18001', async () => {
      await refused(
        [{ Target: [{ Phone: cn(22) }] }],
        RetCode.MissingParameter,
        'TaskContent[0].TemplateId',
      );
    });

    it('refuses a Phone that is not a string with 18003', async () => {
      await refused(
        [{ TemplateId: plain, Target: [{ Phone: 13800000023 }] }],
        RetCode.InvalidParameter,
        'TaskContent[0].Target[0].Phone',
      );
    });

    it('refuses a request whose AccountId is not the key’s with 171', async () => {
      const before = await storedMessages(gw);
      const { status, json } = await gw.api(
        batchBody([{ TemplateId: plain, Target: [{ Phone: cn(24) }] }], 2),
      );
      assert.equal(json.RetCode, RetCode.PermissionDenied);
      assert.equal(status, 403);
      assert.equal(await storedMessages(gw), before);
    });
  });

  describe('phone forms', () => {
    it('accepts +86, (86), national and 0086 forms and answers receipts with the Phone as written', async () => {
      const written = ['+86 138 0000 0030', '(86)13800000031', '13800000032', '008613800000033'];
      const session = await sendAll(gw, [
        { TemplateId: plain, Target: written.map((Phone) => ({ Phone })) },
      ]);
      const set = await finalReceipts(gw, session, written.length);
      assert.deepEqual(
        set.map((r) => r.Phone),
        written,
      );
      for (const phone of written) assert.equal(receiptOf(set, phone).ReceiptResult, 'Success');
    });

    it('routes a (86) number by its E.164 form: (86)…0001 is the Fail test number', async () => {
      const session = await sendAll(gw, [
        { TemplateId: plain, Target: [{ Phone: '(86)13800000001' }, { Phone: '13800000001' }] },
      ]);
      const set = await finalReceipts(gw, session, 2);
      assert.equal(receiptOf(set, '(86)13800000001').ReceiptResult, 'Fail');
      assert.equal(receiptOf(set, '13800000001').ReceiptResult, 'Fail');
    });
  });
});

describe('SendBatchUSMSMessage with another default region', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      ...THREADED,
      simDelayMs: 0,
      receiptTimeoutS: 1,
      defaultRegion: 'US',
    });
    await registerSenderId(gw, 'WIREBIRD');
  });
  after(() => gw.close());

  it('reads national numbers in the configured region and still takes +, (86) and 0086', async () => {
    const plain = await approvedTemplate(gw, 'Your parcel has arrived');
    const json = await sendBatch(gw, [
      {
        TemplateId: plain,
        Target: ['(415) 555-2671', '13800000040', '(86)13800000041', '0086 13800000042'].map(
          (Phone) => ({ Phone }),
        ),
      },
    ]);
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal(json.SuccessCount, 3);
    assert.deepEqual(
      json.FailContent?.flatMap((b) => b.Target.map((t) => t.Phone)),
      ['13800000040'],
      'a CN national number is not valid in the US',
    );
  });
});
