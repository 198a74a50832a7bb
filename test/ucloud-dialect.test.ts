import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { approvedTemplate, cn, registerSenderId, storedMessages } from './helpers/sending.js';
import { base64Json, keyPair, postForm, signedForm, type KeyPair } from './helpers/ucloud.js';

describe('the UCloud dialect over HTTP', () => {
  let gw: TestGateway;
  let pair: KeyPair;
  let other: KeyPair;
  let tpl: string;

  before(async () => {
    gw = await startTestGateway();
    pair = await keyPair(gw, 1);
    other = await keyPair(gw, 2);
    tpl = await approvedTemplate(gw, 'Code {1}');
    await registerSenderId(gw, 'Acme');
  });
  after(() => gw.close());

  const batch = (phones: string[]) => ({
    Action: 'SendBatchUSMSMessage',
    TaskContent: base64Json([
      {
        TemplateId: tpl,
        SigContent: 'Acme',
        Target: phones.map((Phone) => ({ Phone, TemplateParams: ['1234'] })),
      },
    ]),
  });

  it('accepts a signed form SendBatchUSMSMessage with base64 TaskContent, at /api and at /', async () => {
    for (const path of ['/api', '/']) {
      const { status, json } = await postForm(gw, signedForm(batch([cn(1013)]), pair), { path });
      assert.equal(status, 200);
      assert.equal(json.RetCode, 0, json.Message);
      assert.equal(json.Action, 'SendBatchUSMSMessageResponse');
      assert.equal(json.SuccessCount, 1);
      const [session] = await gw.store.accountSessions(1, [json.SessionNo as string]);
      assert.equal(session, json.SessionNo, "stored under the key pair's account");
    }
  });

  it('answers every refusal with HTTP 200, its own RetCode, and stores nothing', async () => {
    const before = await storedMessages(gw);
    const cases: [Record<string, string> | string, number, RegExp][] = [
      [
        signedForm(batch([cn(1)]), pair, (p) => delete p.Signature),
        RetCode.MissingParameter,
        /^Signature is required/,
      ],
      [
        signedForm(batch([cn(1)]), pair, (p) => delete p.PublicKey),
        RetCode.MissingParameter,
        /^PublicKey is required/,
      ],
      [
        signedForm(batch([cn(1)]), pair, (p) => (p.Signature = '0'.repeat(40))),
        RetCode.SignatureMismatch,
        /Signature does not match/,
      ],
      [
        signedForm(batch([cn(1)]), pair, (p) => (p.Region = 'cn-sh2')),
        RetCode.SignatureMismatch,
        /Signature does not match/,
      ],
      // The right signature cut to its first 1 or 8 characters, or with more after it.
      ...[
        (sig: string) => sig.slice(0, 1),
        (sig: string) => sig.slice(0, 8),
        (sig: string) => `${sig}0`,
        (sig: string) => `${sig}${sig}`,
      ].map((cut): [Record<string, string>, number, RegExp] => [
        signedForm(batch([cn(1)]), pair, (p) => (p.Signature = cut(p.Signature ?? ''))),
        RetCode.SignatureMismatch,
        /Signature does not match/,
      ]),
      [
        // ProjectId=org-1 and ProjectIdo=rg-1 are signed alike (names and values joined): the
        // signature holds, and the parameter that is none of the Action's is refused.
        signedForm(batch([cn(1)]), pair, (p) => {
          delete p.ProjectId;
          p.ProjectIdo = 'rg-1';
        }),
        RetCode.InvalidParameter,
        /^ProjectIdo is not a parameter of SendBatchUSMSMessage; in the UCloud dialect/,
      ],
      [
        signedForm(batch([cn(1)]), { ...pair, publicKey: 'wbpk_unknown' }),
        RetCode.UnknownPublicKey,
        /PublicKey is not a key pair/,
      ],
      [
        signedForm({ ...batch([cn(1)]), AccountId: 1 }, other),
        RetCode.PermissionDenied,
        /AccountId 1/,
      ],
      [
        signedForm({ Action: 'SendBatchUSMSMessage', TaskContent: 'not base64!' }, pair),
        RetCode.InvalidParameter,
        /^TaskContent must be base64/,
      ],
      [
        signedForm(
          { Action: 'SendBatchUSMSMessage', TaskContent: Buffer.from('{oops').toString('base64') },
          pair,
        ),
        RetCode.InvalidParameter,
        /not JSON/,
      ],
      [
        signedForm({ Action: 'SendBatchUSMSMessage', TaskContent: base64Json({ a: 1 }) }, pair),
        RetCode.InvalidParameter,
        /JSON array/,
      ],
      [
        signedForm(
          {
            Action: 'SendUSMSMessage',
            TemplateId: tpl,
            TemplateParams: ['1'],
            'PhoneNumbers.0': cn(1),
            'PhoneNumbers.2': cn(2),
          },
          pair,
        ),
        RetCode.InvalidParameter,
        /PhoneNumbers has PhoneNumbers\.2 but no PhoneNumbers\.1/,
      ],
      [
        'Action=QueryUSMSTemplate&TemplateId=a&TemplateId=b',
        RetCode.MalformedRequest,
        /given twice/,
      ],
    ];
    for (const [form, code, message] of cases) {
      const { status, json } = await postForm(gw, form);
      assert.equal(status, 200, JSON.stringify(json));
      assert.equal(json.RetCode, code, json.Message);
      assert.match(json.Message, message);
    }
    assert.equal(await storedMessages(gw), before);
  });

  it('refuses 10,000 list entries as a limit, with HTTP 200', async () => {
    const phones = Array.from({ length: 10_000 }, (_, i) => cn(20_000 + i));
    const form = signedForm(
      { Action: 'SendUSMSMessage', TemplateId: tpl, PhoneNumbers: phones },
      pair,
    );
    const body = new URLSearchParams(form).toString();
    assert.ok(body.length < 1_048_576, 'under the body limit: the list rule is what refuses it');
    const { status, json } = await postForm(gw, body);
    assert.equal(status, 200);
    assert.equal(json.RetCode, RetCode.LimitExceeded, json.Message);
    assert.match(json.Message, /^PhoneNumbers has 10000 entries; at most 1000 are allowed/);
  });

  it("an account's key pair never reaches another account's data", async () => {
    const query = { Action: 'QueryUSMSTemplate', TemplateId: tpl };
    const mine = await postForm(gw, signedForm(query, pair));
    assert.equal(mine.json.RetCode, 0, mine.json.Message);
    const theirs = await postForm(gw, signedForm(query, other));
    assert.equal(theirs.json.RetCode, RetCode.NotFound);
  });

  it('accepts a JSON body signed with a PublicKey, and keeps Bearer JSON answers as they were', async () => {
    const signed = signedForm({ Action: 'QueryUSMSTemplate', TemplateId: tpl }, pair);
    const res = await gw.api(signed, { key: null });
    assert.equal(res.status, 200);
    assert.equal(res.json.RetCode, 0, res.json.Message);
    const bad = await gw.api({ ...signed, Signature: 'f'.repeat(40) }, { key: null });
    assert.equal(bad.status, 200, 'the dialect answers 200 in JSON too');
    assert.equal(bad.json.RetCode, RetCode.SignatureMismatch);
    const bearer = await gw.api(
      { Action: 'QueryUSMSTemplate', AccountId: 1, TemplateId: tpl },
      { key: 'wb_nope' },
    );
    assert.equal(bearer.status, 401, 'the JSON API keeps its statuses');
  });

  it('takes an Idempotency-Key on a form request: the retry is answered from the first', async () => {
    const form = signedForm(batch([cn(1014)]), pair);
    const headers = { 'idempotency-key': 'ucloud-retry-1' };
    const first = await postForm(gw, form, { headers });
    const again = await postForm(gw, form, { headers });
    assert.equal(first.json.RetCode, 0, first.json.Message);
    assert.equal(again.json.SessionNo, first.json.SessionNo);
  });

  it('SendUSMSMessage sends one template to every number and names the sender', async () => {
    const form = signedForm(
      {
        Action: 'SendUSMSMessage',
        TemplateId: tpl,
        TemplateParams: ['9999'],
        SigContent: 'Acme',
        PhoneNumbers: [cn(1015), cn(1016)],
        UserId: 'u-7',
      },
      pair,
    );
    const { json } = await postForm(gw, form);
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal(json.UserId, 'u-7');
    const view = await gw.store.sessionView(json.SessionNo as string, 1, 10);
    assert.equal(view?.messages.length, 2);
    const receipts = await eventually(async () => {
      const r = await gw.store.sessionReceipts(1, json.SessionNo as string);
      return r.length === 2 ? r : undefined;
    }, 'two receipts');
    assert.deepEqual(
      receipts.map((r) => r.UserId),
      ['u-7', 'u-7'],
    );
  });

  it('a form body too large for the gateway is a limit with HTTP 200, not a 413', async () => {
    const form = signedForm(
      { Action: 'QueryUSMSTemplate', TemplateId: 'x'.repeat(1_100_000) },
      pair,
    );
    const { status, json } = await postForm(gw, form);
    assert.equal(status, 200);
    assert.equal(json.RetCode, RetCode.LimitExceeded);
  });

  it("the console's own form posts are not the dialect: their refusals keep their status", async () => {
    const res = await fetch(`${gw.url}/console/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: gw.url },
      body: `key=${'k'.repeat(20_000)}`,
    });
    assert.equal(res.status, 413, "over the console form limit: 413, not the dialect's 200");
  });

  it('an Action the SDK has and Wirebird does not offer gets the not-supported RetCode', async () => {
    const { status, json } = await postForm(
      gw,
      signedForm({ Action: 'AddBackfill', SendNo: '1', Target: cn(1) }, pair),
    );
    assert.equal(status, 200);
    assert.equal(json.RetCode, RetCode.NotSupported);
    assert.match(json.Message, /AddBackfill is a UCloud Action that Wirebird does not offer/);
  });
});
