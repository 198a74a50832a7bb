import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  accountKey,
  cn,
  messageView,
  messageWhen,
  type MessageView,
  registerBusinessPhone,
  sentMessageId,
} from './helpers/sending.js';

describe('GetMessage', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0 });
    await registerBusinessPhone(gw);
  });
  after(() => gw.close());

  const getMessage = (fields: Record<string, unknown>, key?: string) =>
    gw.api({ Action: 'GetMessage', ...fields }, key === undefined ? {} : { key });

  it("answers the account's message with its status and history, as the admin view has it", async () => {
    const id = await sentMessageId(gw, { To: cn(41) });
    await messageWhen(gw, id, 'delivered');
    const { status, json } = await getMessage({ AccountId: 1, MessageId: id });
    assert.equal(status, 200);
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal(json.Action, 'GetMessageResponse');
    const data = json.Data as MessageView;
    assert.equal(data.MessageId, id);
    assert.equal(data.To, cn(41));
    assert.equal(data.Status, 'delivered');
    assert.deepEqual(
      data.History.map((e) => e.Status),
      ['accepted', 'submitted', 'sent', 'delivered'],
    );
    assert.deepEqual(data, await messageView(gw, id));
  });

  it("answers another account's message exactly as one that does not exist", async () => {
    const id = await sentMessageId(gw, { To: cn(42) });
    const otherKey = await accountKey(gw, 2);
    const theirs = await getMessage({ AccountId: 2, MessageId: id }, otherKey);
    const none = await getMessage({ AccountId: 2, MessageId: 'no-such-id' }, otherKey);
    assert.equal(theirs.json.RetCode, RetCode.NotFound);
    assert.equal(theirs.json.Data, undefined);
    assert.equal(theirs.json.Message, `MessageId ${id} not found in this account`);
    assert.equal(none.json.Message, 'MessageId no-such-id not found in this account');
  });

  it("reads another account's id with the same store calls as an unknown one", async () => {
    const id = await sentMessageId(gw, { To: cn(44) });
    await messageWhen(gw, id, 'delivered');
    const otherKey = await accountKey(gw, 2);
    // The dispatcher's and sweepers' own calls may fall between: they are not the request's.
    const background = /^(claim|apply|mark|record|expire|due|prune|sweep|settle)/;
    const store = gw.store as unknown as Record<string, unknown>;
    const calls: string[] = [];
    const spied = new Map<string, unknown>();
    for (const name of Object.keys(store)) {
      const f = store[name];
      if (typeof f !== 'function') continue;
      spied.set(name, f);
      store[name] = (...args: unknown[]) => {
        if (!background.test(name)) {
          calls.push(`${name}(${args.map((a) => (a === id ? 'ID' : JSON.stringify(a))).join()})`);
        }
        return (f as (...a: unknown[]) => unknown).apply(gw.store, args);
      };
    }
    try {
      const callsOf = async (messageId: string) => {
        calls.length = 0;
        await getMessage({ AccountId: 2, MessageId: messageId }, otherKey);
        return [...calls];
      };
      const theirs = await callsOf(id);
      const unknown = await callsOf('no-such-id');
      assert.deepEqual(
        theirs,
        unknown.map((c) => c.replace('"no-such-id"', 'ID')),
      );
      assert.ok(theirs.includes('getBusinessMessage(ID,2)'), 'the owner is part of the read');
    } finally {
      for (const [name, f] of spied) store[name] = f;
    }
  });

  it('is a read: a key with the read scope runs it, one with only send does not', async () => {
    const id = await sentMessageId(gw, { To: cn(43) });
    const keyWith = async (scope: string) => {
      const made = await gw.admin('POST', '/admin/accounts/1/keys', { Scopes: [scope] });
      assert.equal(made.status, 201, made.json.Message);
      return made.json.Key as string;
    };
    const read = await getMessage({ AccountId: 1, MessageId: id }, await keyWith('read'));
    assert.equal(read.json.RetCode, 0, read.json.Message);
    const send = await getMessage({ AccountId: 1, MessageId: id }, await keyWith('send'));
    assert.equal(send.json.RetCode, RetCode.OutOfScope);
  });

  it('refuses a request without a MessageId, naming it', async () => {
    const { json } = await getMessage({ AccountId: 1 });
    assert.equal(json.RetCode, RetCode.MissingParameter);
    assert.match(json.Message, /^MessageId/);
  });
});
