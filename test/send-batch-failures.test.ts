import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { BatchInfo } from '../src/domain/batches/batch.js';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, THREADED, type TestGateway } from './helpers/gateway.js';
import {
  UUID,
  accountKey,
  approvedTemplate,
  cn,
  finalReceipts,
  registerSenderId,
  sendBatch,
  storedMessages,
  templateAt,
  type BatchAnswer,
  type Group,
  type Target,
} from './helpers/sending.js';

describe('SendBatchUSMSMessage failures', () => {
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

  /** A group that passes every check, so the failing one beside it can be told apart. */
  const goodGroup = (n: number): Group => ({
    TemplateId: tpl,
    SenderId: 'WIREBIRD',
    Target: [{ Phone: cn(n), TemplateParams: ['Ann', '42'], UserId: `good-${n}` }],
  });

  /** Sends `failing` beside a good group; asserts the good one went and returns the answer. */
  async function besideGood(failing: Group, n: number): Promise<BatchAnswer> {
    const before = await storedMessages(gw);
    const json = await sendBatch(gw, [goodGroup(n), failing]);
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal(json.SuccessCount, 1, 'the good group is still sent');
    assert.ok(json.SessionNo);
    assert.equal(await storedMessages(gw), before + 1, 'only the good message is stored');
    const set = await finalReceipts(gw, json.SessionNo, 1);
    assert.deepEqual(
      set.map((r) => r.UserId),
      [`good-${n}`],
    );
    return json;
  }

  /** The one BatchInfo of a whole group refused at group level, every target listed. */
  function groupFailure(json: BatchAnswer, failing: Group, details: RegExp): BatchInfo {
    assert.equal(json.FailContent?.length, 1);
    const info = json.FailContent[0] as BatchInfo;
    assert.equal(info.TemplateId, failing.TemplateId);
    assert.equal(info.SenderId, failing.SenderId ?? '');
    assert.match(info.FailureDetails ?? '', details);
    assert.deepEqual(
      info.Target.map((t) => t.Phone),
      failing.Target.map((t) => t.Phone),
      'every target of the group is listed',
    );
    for (const t of info.Target) assert.equal(t.FailureDetails, '');
    return info;
  }

  describe('group level', () => {
    const two = (n: number): Target[] => [
      { Phone: cn(n), TemplateParams: ['a', 'b'], UserId: 'u1', ExtendCode: '12' },
      { Phone: cn(n + 1), TemplateParams: ['c', 'd'] },
    ];

    it('fails a whole group with an unknown template', async () => {
      const failing = { TemplateId: 'UTANOSUCHTEMPLATE', Target: two(100) };
      const json = await besideGood(failing, 102);
      const info = groupFailure(json, failing, /UTANOSUCHTEMPLATE/);
      assert.deepEqual(info.Target[0], {
        TemplateParams: ['a', 'b'],
        Phone: cn(100),
        ExtendCode: '12',
        UserId: 'u1',
        FailureDetails: '',
      });
      assert.match(json.Message, /\b2\b/);
    });

    it('fails a whole group with another account’s template', async () => {
      const key2 = await accountKey(gw, 2);
      const theirs = await approvedTemplate(gw, 'Hello {1}, your code is {2}', {
        accountId: 2,
        key: key2,
      });
      const failing = { TemplateId: theirs, Target: two(110) };
      groupFailure(await besideGood(failing, 112), failing, new RegExp(theirs));
    });

    for (const status of [0, 3, 4] as const) {
      it(`fails a whole group with a template in Status ${status}`, async () => {
        const id = await templateAt(gw, status);
        const failing = { TemplateId: id, Target: two(120 + status * 3) };
        const json = await besideGood(failing, 122 + status * 3);
        groupFailure(json, failing, /not approved/);
      });
    }

    it('fails a whole group whose SenderId is not registered', async () => {
      const failing = { TemplateId: tpl, SenderId: 'NOSUCHID', Target: two(140) };
      groupFailure(await besideGood(failing, 142), failing, /NOSUCHID/);
    });

    it('fails a whole group when one target’s SenderId is not registered', async () => {
      const targets = two(150);
      targets[1] = { ...targets[1], SenderId: 'NOSUCHID' };
      const failing = { TemplateId: tpl, SenderId: 'WIREBIRD', Target: targets };
      groupFailure(await besideGood(failing, 152), failing, /NOSUCHID/);
    });

    it('treats a SenderId registered for another account as not registered', async () => {
      const key3 = await accountKey(gw, 3);
      const theirTpl = await approvedTemplate(gw, 'Your parcel has arrived', {
        accountId: 3,
        key: key3,
      });
      const json = await sendBatch(
        gw,
        [{ TemplateId: theirTpl, SenderId: 'WIREBIRD', Target: [{ Phone: cn(160) }] }],
        { accountId: 3, key: key3 },
      );
      assert.equal(json.RetCode, RetCode.NothingAccepted);
      assert.match(json.FailContent?.[0]?.FailureDetails ?? '', /WIREBIRD/);
    });

    it('answers 18046 with FailContent, SuccessCount 0 and no SessionNo when nothing was accepted', async () => {
      const before = await storedMessages(gw);
      const json = await sendBatch(gw, [
        { TemplateId: 'UTANOSUCHTEMPLATE', Target: two(170) },
        { TemplateId: tpl, SenderId: 'NOSUCHID', Target: two(172) },
        { TemplateId: tpl, Target: [{ Phone: 'nope', TemplateParams: ['a', 'b'] }] },
      ]);
      assert.equal(json.RetCode, RetCode.NothingAccepted);
      assert.match(json.Message, /\b5\b/, 'Message says how many numbers failed');
      assert.equal(json.SuccessCount, 0);
      assert.equal(json.SessionNo, undefined);
      assert.match(json.ReqUuid as string, UUID);
      assert.equal(json.FailContent?.length, 3);
      assert.equal(json.FailContent[2]?.FailureDetails, undefined);
      assert.match(json.FailContent[2]?.Target[0]?.FailureDetails ?? '', /Phone/);
      assert.equal(await storedMessages(gw), before);
    });
  });

  describe('number level', () => {
    /** Sends one failing target between two good ones of the same group; returns its detail. */
    async function numberFailure(bad: Target, templateId = tpl) {
      const params = templateId === tpl ? ['Ann', '42'] : undefined;
      const good = (n: number): Target => ({ Phone: cn(n), TemplateParams: params, UserId: 'ok' });
      const before = await storedMessages(gw);
      const json = await sendBatch(gw, [
        { TemplateId: templateId, SenderId: 'WIREBIRD', Target: [good(200), bad, good(201)] },
      ]);
      assert.equal(json.RetCode, 0, json.Message);
      assert.equal(json.SuccessCount, 2, 'the other numbers are sent');
      assert.equal(await storedMessages(gw), before + 2);
      assert.equal(json.FailContent?.length, 1);
      const info = json.FailContent[0] as BatchInfo;
      assert.equal(info.TemplateId, templateId);
      assert.equal(info.SenderId, 'WIREBIRD');
      assert.equal(info.FailureDetails, undefined, 'no group-level failure');
      assert.equal(info.Target.length, 1);
      const detail = info.Target[0];
      assert.ok(detail);
      assert.equal(detail.Phone, bad.Phone);
      assert.ok(detail.FailureDetails, 'the number carries its own FailureDetails');
      const set = await finalReceipts(gw, json.SessionNo as string, 2);
      assert.deepEqual(
        set.map((r) => r.Phone),
        [cn(200), cn(201)],
      );
      return detail;
    }

    it('fails a phone number that cannot be parsed', async () => {
      const d = await numberFailure({ Phone: '+86abc', TemplateParams: ['x', 'y'] });
      assert.match(d.FailureDetails, /Phone/);
      assert.deepEqual(d.TemplateParams, ['x', 'y']);
    });

    it('fails a phone number that is not valid for its country', async () => {
      const d = await numberFailure({ Phone: '+861380000', TemplateParams: ['x', 'y'] });
      assert.match(d.FailureDetails, /Phone/);
    });

    it('fails too few TemplateParams', async () => {
      const d = await numberFailure({ Phone: cn(210), TemplateParams: ['only one'] });
      assert.match(d.FailureDetails, /TemplateParams/);
      assert.deepEqual(d.TemplateParams, ['only one']);
    });

    it('fails too many TemplateParams', async () => {
      const d = await numberFailure({ Phone: cn(211), TemplateParams: ['a', 'b', 'c'] });
      assert.match(d.FailureDetails, /TemplateParams/);
    });

    it('fails TemplateParams missing for a template with variables', async () => {
      const d = await numberFailure({ Phone: cn(212) });
      assert.match(d.FailureDetails, /TemplateParams/);
      assert.deepEqual(d.TemplateParams, []);
    });

    it('fails TemplateParams given for a template without variables', async () => {
      const d = await numberFailure({ Phone: cn(213), TemplateParams: ['surprise'] }, plain);
      assert.match(d.FailureDetails, /TemplateParams must not be passed/);
    });

    it('fails an ExtendCode that is not digits', async () => {
      const d = await numberFailure({
        Phone: cn(214),
        TemplateParams: ['a', 'b'],
        ExtendCode: '12a',
      });
      assert.match(d.FailureDetails, /ExtendCode/);
      assert.equal(d.ExtendCode, '12a');
    });

    it('fails a UserId over 32 characters', async () => {
      const userId = 'u'.repeat(33);
      const d = await numberFailure({ Phone: cn(215), TemplateParams: ['a', 'b'], UserId: userId });
      assert.match(d.FailureDetails, /UserId/);
      assert.equal(d.UserId, userId);
    });

    it('accepts a UserId of exactly 32 characters, Chinese included, and an ExtendCode of digits', async () => {
      const json = await sendBatch(gw, [
        {
          TemplateId: tpl,
          Target: [
            {
              Phone: cn(216),
              TemplateParams: ['a', 'b'],
              UserId: '用'.repeat(32),
              ExtendCode: '123',
            },
            { Phone: cn(217), TemplateParams: [7, 8], UserId: 'x'.repeat(32) },
          ],
        },
      ]);
      assert.equal(json.RetCode, 0, json.Message);
      assert.equal(json.SuccessCount, 2);
      const set = await finalReceipts(gw, json.SessionNo as string, 2);
      assert.deepEqual(
        set.map((r) => r.UserId),
        ['用'.repeat(32), 'x'.repeat(32)],
      );
    });

    it('lists several failing numbers of one group, each with its own reason', async () => {
      const json = await sendBatch(gw, [
        {
          TemplateId: tpl,
          Target: [
            { Phone: 'bad', TemplateParams: ['a', 'b'] },
            { Phone: cn(220), TemplateParams: ['a'] },
            { Phone: cn(221), TemplateParams: ['a', 'b'] },
          ],
        },
      ]);
      assert.equal(json.RetCode, 0, json.Message);
      assert.equal(json.SuccessCount, 1);
      const reasons = json.FailContent?.[0]?.Target.map((t) => t.FailureDetails) ?? [];
      assert.equal(reasons.length, 2);
      assert.match(reasons[0] ?? '', /Phone/);
      assert.match(reasons[1] ?? '', /TemplateParams/);
    });
  });
});
