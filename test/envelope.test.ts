import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';

describe('POST /api envelope', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw.close());

  it('refuses a missing Action with 160', async () => {
    const { status, json } = await gw.api({ AccountId: 1 });
    assert.equal(status, 200);
    assert.equal(json.RetCode, 160);
    assert.match(json.Message, /Action/);
    assert.equal(json.Action, 'Response');
  });

  it('refuses an unknown Action with 161 and echoes it with Response', async () => {
    const { json } = await gw.api({ Action: 'DeleteEverything', AccountId: 1 });
    assert.equal(json.RetCode, 161);
    assert.equal(json.Action, 'DeleteEverythingResponse');
  });

  it('answers malformed JSON with 18000 as JSON, not HTML', async () => {
    const { status, json } = await gw.api('{"Action": "QueryUSMSTemplate",');
    assert.equal(status, 400);
    assert.equal(json.RetCode, 18000);
    assert.match(json.Message, /JSON/);
  });

  it('refuses a body that is not an object', async () => {
    for (const body of ['[1,2]', '"text"', '42', 'null']) {
      const { json } = await gw.api(body);
      assert.equal(json.RetCode, 18000, body);
    }
  });

  it('refuses a wrong Content-Type with 415 and 18000', async () => {
    const res = await fetch(gw.url + '/api', {
      method: 'POST',
      headers: { 'content-type': 'text/plain', authorization: `Bearer ${gw.key}` },
      body: 'Action=QueryUSMSTemplate',
    });
    const json = (await res.json()) as { RetCode: number; Message: string };
    assert.equal(res.status, 415);
    assert.equal(json.RetCode, 18000);
    assert.match(json.Message, /Content-Type/);
  });

  it('refuses a body over the size limit with 413 and 18019', async () => {
    const big = { Action: 'QueryUSMSTemplate', AccountId: 1, Pad: 'x'.repeat(1_100_000) };
    const { status, json } = await gw.api(big);
    assert.equal(status, 413);
    assert.equal(json.RetCode, 18019);
  });

  it('refuses a request without a key (401, 170) and with an unknown key', async () => {
    const none = await gw.api(
      { Action: 'QueryUSMSTemplate', AccountId: 1, TemplateId: ['x'] },
      { key: null },
    );
    assert.equal(none.status, 401);
    assert.equal(none.json.RetCode, 170);
    const wrong = await gw.api(
      { Action: 'QueryUSMSTemplate', AccountId: 1, TemplateId: ['x'] },
      { key: 'wb_nope' },
    );
    assert.equal(wrong.json.RetCode, 170);
  });

  it("refuses an AccountId that is not the key's account (403, 171)", async () => {
    const { status, json } = await gw.api({
      Action: 'QueryUSMSTemplate',
      AccountId: 2,
      TemplateId: ['x'],
    });
    assert.equal(status, 403);
    assert.equal(json.RetCode, 171);
  });

  it('accepts AccountId as an int, a numeric string, or lower-case accountId', async () => {
    for (const id of [
      { AccountId: 1 },
      { AccountId: '1' },
      { accountId: 1 },
      { accountId: '1', AccountId: 1 },
    ]) {
      const { json } = await gw.api({
        Action: 'QueryUSMSTemplate',
        ...id,
        TemplateId: ['UTANONE'],
      });
      assert.equal(json.RetCode, 18010, JSON.stringify(id)); // authenticated and routed: not found
    }
  });

  it('refuses a missing, malformed or contradictory AccountId naming the field', async () => {
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{}, 18001, /AccountId/],
      [{ AccountId: 'abc' }, 18003, /AccountId/],
      [{ AccountId: 1.5 }, 18003, /AccountId/],
      [{ AccountId: -1 }, 18003, /AccountId/],
      [{ AccountId: 1, accountId: 2 }, 18003, /accountId/],
    ];
    for (const [fields, code, message] of cases) {
      const { json } = await gw.api({ Action: 'QueryUSMSTemplate', TemplateId: ['x'], ...fields });
      assert.equal(json.RetCode, code, JSON.stringify(fields));
      assert.match(json.Message, message);
    }
  });

  it('answers unknown paths with JSON 404', async () => {
    const res = await fetch(gw.url + '/nowhere');
    assert.equal(res.status, 404);
    assert.equal(((await res.json()) as { RetCode: number }).RetCode, 18010);
  });

  it('answers GET /healthz with 200', async () => {
    const res = await fetch(gw.url + '/healthz');
    assert.equal(res.status, 200);
  });
});
