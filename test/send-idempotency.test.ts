import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, THREADED, type TestGateway } from './helpers/gateway.js';
import {
  accountKey,
  approvedTemplate,
  cn,
  finalReceipts,
  registerBusinessPhone,
  sendBatch,
  sendMessage,
  storedMessages,
  type Caller,
  type Group,
} from './helpers/sending.js';

describe('Idempotency-Key', () => {
  let gw: TestGateway;
  let plain: string;
  let keyCount = 0;
  /** A key no other test uses. */
  const freshKey = () => `idem-${process.pid}-${++keyCount}`;
  const withKey = (key: string, caller: Caller = {}): Caller => ({
    ...caller,
    headers: { 'Idempotency-Key': key },
  });
  const groups = (...ns: number[]): Group[] => [
    { TemplateId: plain, Target: ns.map((n) => ({ Phone: cn(n) })) },
  ];

  before(async () => {
    gw = await startTestGateway({
      ...THREADED,
      simDelayMs: 0,
      receiptTimeoutS: 1,
      templateReview: 'manual',
    });
    plain = await approvedTemplate(gw, 'Your parcel has arrived');
    await registerBusinessPhone(gw);
  });
  after(() => gw.close());

  describe('on SendBatchUSMSMessage', () => {
    it('answers a repeat with the identical answer and stores the messages once', async () => {
      const key = freshKey();
      const before = await storedMessages(gw);
      const first = await sendBatch(gw, groups(10, 11, 12), withKey(key));
      assert.equal(first.RetCode, 0, first.Message);
      assert.equal(await storedMessages(gw), before + 3);
      const second = await sendBatch(gw, groups(10, 11, 12), withKey(key));
      assert.deepEqual(second, first, 'the first answer, SessionNo and ReqUuid included');
      assert.equal(await storedMessages(gw), before + 3, 'nothing sent again');
      const set = await finalReceipts(gw, first.SessionNo as string, 3);
      assert.equal(set.length, 3);
    });

    it('replays a partly failed answer with its Message and FailContent', async () => {
      const key = freshKey();
      const body: Group[] = [
        { TemplateId: plain, Target: [{ Phone: cn(13) }, { Phone: 'bad phone' }] },
      ];
      const first = await sendBatch(gw, body, withKey(key));
      assert.equal(first.SuccessCount, 1);
      const before = await storedMessages(gw);
      const second = await sendBatch(gw, body, withKey(key));
      assert.deepEqual(second, first);
      assert.equal(await storedMessages(gw), before);
    });

    it('refuses the same key with a different body with 18020 and sends nothing', async () => {
      const key = freshKey();
      const first = await sendBatch(gw, groups(14), withKey(key));
      assert.equal(first.RetCode, 0, first.Message);
      const before = await storedMessages(gw);
      const other = await sendBatch(gw, groups(15), withKey(key));
      assert.equal(other.RetCode, RetCode.StateConflict);
      assert.match(other.Message, /Idempotency-Key/);
      assert.equal(other.SessionNo, undefined);
      assert.equal(await storedMessages(gw), before);
    });

    it('sends again under a different key', async () => {
      const before = await storedMessages(gw);
      const a = await sendBatch(gw, groups(16), withKey(freshKey()));
      const b = await sendBatch(gw, groups(16), withKey(freshKey()));
      assert.equal(a.RetCode, 0, a.Message);
      assert.equal(b.RetCode, 0, b.Message);
      assert.notEqual(a.SessionNo, b.SessionNo);
      assert.equal(await storedMessages(gw), before + 2);
    });

    it('sends every time without a key', async () => {
      const before = await storedMessages(gw);
      const a = await sendBatch(gw, groups(17));
      const b = await sendBatch(gw, groups(17));
      assert.notEqual(a.SessionNo, b.SessionNo);
      assert.equal(await storedMessages(gw), before + 2);
    });

    it('keeps keys per account: another account may use the same key', async () => {
      const key = freshKey();
      const key2 = await accountKey(gw, 2);
      const theirs = await approvedTemplate(gw, 'Your parcel has arrived', {
        accountId: 2,
        key: key2,
      });
      const mine = await sendBatch(gw, groups(18), withKey(key));
      const before = await storedMessages(gw);
      const other = await sendBatch(
        gw,
        [{ TemplateId: theirs, Target: [{ Phone: cn(18) }] }],
        withKey(key, { accountId: 2, key: key2 }),
      );
      assert.equal(other.RetCode, 0, other.Message);
      assert.notEqual(other.SessionNo, mine.SessionNo);
      assert.equal(await storedMessages(gw), before + 1);
    });

    it('refuses a key longer than 255 characters with 18003 naming Idempotency-Key', async () => {
      const before = await storedMessages(gw);
      const json = await sendBatch(gw, groups(19), withKey('k'.repeat(256)));
      assert.equal(json.RetCode, RetCode.InvalidParameter);
      assert.match(json.Message, /Idempotency-Key/);
      assert.equal(json.SessionNo, undefined);
      assert.equal(await storedMessages(gw), before);
    });

    it('accepts a key of exactly 255 characters', async () => {
      const json = await sendBatch(gw, groups(20), withKey('k'.repeat(255)));
      assert.equal(json.RetCode, 0, json.Message);
    });

    it('stores one set of messages for 5 concurrent identical requests, all answered alike', async () => {
      const key = freshKey();
      const before = await storedMessages(gw);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => sendBatch(gw, groups(21, 22, 23, 24), withKey(key))),
      );
      for (const a of answers) assert.equal(a.RetCode, 0, a.Message);
      const sessions = new Set(answers.map((a) => a.SessionNo));
      assert.equal(sessions.size, 1, `one SessionNo for all five: ${[...sessions].join(', ')}`);
      assert.equal(new Set(answers.map((a) => a.ReqUuid)).size, 1);
      assert.equal(await storedMessages(gw), before + 4, 'exactly one set of messages');
      const set = await finalReceipts(gw, answers[0]?.SessionNo as string, 4);
      assert.equal(set.length, 4);
    });
  });

  describe('on SendMessage', () => {
    it('answers a repeat with the same MessageId and RequestId and stores one message', async () => {
      const key = freshKey();
      const before = await storedMessages(gw);
      const first = await sendMessage(gw, { To: cn(30) }, withKey(key));
      assert.equal(first.RetCode, 0, first.Message);
      const second = await sendMessage(gw, { To: cn(30) }, withKey(key));
      assert.deepEqual(second, first);
      assert.equal(await storedMessages(gw), before + 1);
    });

    it('refuses the same key with another body with 18020', async () => {
      const key = freshKey();
      await sendMessage(gw, { To: cn(31) }, withKey(key));
      const before = await storedMessages(gw);
      const other = await sendMessage(gw, { To: cn(32) }, withKey(key));
      assert.equal(other.RetCode, RetCode.StateConflict);
      assert.match(other.Message, /Idempotency-Key/);
      assert.equal(other.Data, undefined);
      assert.equal(await storedMessages(gw), before);
    });

    it('refuses a key used on SendBatchUSMSMessage for a SendMessage with 18020', async () => {
      const key = freshKey();
      const batch = await sendBatch(gw, groups(33), withKey(key));
      assert.equal(batch.RetCode, 0, batch.Message);
      const json = await sendMessage(gw, { To: cn(33) }, withKey(key));
      assert.equal(json.RetCode, RetCode.StateConflict);
    });

    it('sends again under a different key', async () => {
      const a = await sendMessage(gw, { To: cn(34) }, withKey(freshKey()));
      const b = await sendMessage(gw, { To: cn(34) }, withKey(freshKey()));
      const idOf = (j: typeof a) => (j.Data as { MessageId: string }).MessageId;
      assert.notEqual(idOf(a), idOf(b));
    });

    it('refuses a key longer than 255 characters with 18003 naming Idempotency-Key', async () => {
      const before = await storedMessages(gw);
      const json = await sendMessage(gw, { To: cn(35) }, withKey('m'.repeat(256)));
      assert.equal(json.RetCode, RetCode.InvalidParameter);
      assert.match(json.Message, /Idempotency-Key/);
      assert.equal(await storedMessages(gw), before);
    });

    it('stores one message for 5 concurrent identical requests', async () => {
      const key = freshKey();
      const before = await storedMessages(gw);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => sendMessage(gw, { To: cn(36) }, withKey(key))),
      );
      for (const a of answers) assert.equal(a.RetCode, 0, a.Message);
      const ids = new Set(answers.map((a) => (a.Data as { MessageId: string }).MessageId));
      assert.equal(ids.size, 1);
      assert.equal(await storedMessages(gw), before + 1);
    });
  });
});
