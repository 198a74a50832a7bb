import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { eventually, startTestGateway, THREADED, type TestGateway } from './helpers/gateway.js';
import { approvedTemplate, cn, inbox } from './helpers/sending.js';

/** The mistakes of a first hour (issue 20), each answered with what to do. */
describe('errors that say what to do', () => {
  let gw: TestGateway;
  let tpl: string;
  before(async () => {
    gw = await startTestGateway(THREADED);
    tpl = await approvedTemplate(gw, 'Code {1}');
  });
  after(() => gw.close());

  const batch = (targets: { Phone: string }[], TemplateId = tpl) => ({
    Action: 'SendBatchUSMSMessage',
    AccountId: 1,
    TaskContent: [{ TemplateId, Target: targets.map((t) => ({ ...t, TemplateParams: ['1'] })) }],
  });

  it('an empty Phone fails its own row, as an invalid one does, not the whole request', async () => {
    const { json } = await gw.api(batch([{ Phone: cn(1013) }, { Phone: '' }, { Phone: '12' }]));
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal(json.SuccessCount, 1);
    const rows = (json.FailContent as { Target: { Phone: string; FailureDetails: string }[] }[])[0]
      ?.Target;
    assert.deepEqual(
      rows?.map((r) => [r.Phone, r.FailureDetails]),
      [
        ['', 'Phone is empty'],
        ['12', 'Phone is too short; write it as +<country code><number>, such as +8613800000000'],
      ],
    );
  });

  it('a number without a country code must be a mobile of the default region, and says to write +', async () => {
    const { json } = await gw.api(batch([{ Phone: '4155550123' }, { Phone: '13800001015' }]));
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal(json.SuccessCount, 1, 'the CN mobile written nationally is accepted');
    const rows = (json.FailContent as { Target: { Phone: string; FailureDetails: string }[] }[])[0]
      ?.Target;
    assert.equal(rows?.[0]?.Phone, '4155550123');
    assert.match(rows[0].FailureDetails, /not a mobile number of the default region CN/);
    assert.match(rows[0].FailureDetails, /\+<country code><number>/);
    assert.match(rows[0].FailureDetails, /DefaultRegion.*WIREBIRD_DEFAULT_REGION/, 'the setting');
  });

  it("an account's own default region reads its national numbers, and only its own", async () => {
    const key = (await gw.admin('POST', '/admin/accounts/7/keys')).json.Key as string;
    const set = await gw.admin('PUT', '/admin/accounts/7/default-region', { DefaultRegion: 'us' });
    assert.equal(set.status, 200, set.json.Message);
    assert.deepEqual([set.json.DefaultRegion, set.json.EffectiveRegion], ['US', 'US']);
    const us = await approvedTemplate(gw, 'Code {1}', { accountId: 7, key });
    const send = (accountId: number, TemplateId: string, apiKey?: string) =>
      gw.api(
        { ...batch([{ Phone: '4155550123' }], TemplateId), AccountId: accountId },
        { key: apiKey },
      );
    const own = await send(7, us, key);
    assert.equal(own.json.SuccessCount, 1, JSON.stringify(own.json));
    const delivered = await eventually(async () => {
      const items = await inbox(gw, '+14155550123');
      return items.length > 0 ? items : undefined;
    }, 'the SMS to +14155550123 in the simulator inbox');
    assert.equal(delivered[0]?.to, '+14155550123');
    assert.equal((await send(1, tpl)).json.SuccessCount, 0, 'account 1 still reads it in CN');
    const cleared = await gw.admin('PUT', '/admin/accounts/7/default-region', {
      DefaultRegion: null,
    });
    assert.deepEqual([cleared.json.DefaultRegion, cleared.json.EffectiveRegion], [null, 'CN']);
    assert.equal((await send(7, us, key)).json.SuccessCount, 0, 'back to the gateway region');
  });

  it('a default region that is no region, or an account that does not exist, is refused', async () => {
    const bad = await gw.admin('PUT', '/admin/accounts/1/default-region', { DefaultRegion: 'XX' });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.RetCode, RetCode.InvalidParameter);
    assert.match(bad.json.Message, /DefaultRegion/);
    const none = await gw.admin('PUT', '/admin/accounts/99/default-region', {
      DefaultRegion: 'US',
    });
    assert.equal(none.status, 404);
  });

  it('an unknown TemplateId is said to be one, not "the number failed"', async () => {
    const { json } = await gw.api(batch([{ Phone: cn(1014) }], 'UTA-NOPE'));
    assert.equal(json.RetCode, RetCode.NothingAccepted);
    assert.equal(
      json.Message,
      'no message was accepted: TemplateId UTA-NOPE not found; see FailContent',
    );
  });

  it('an unknown Action names the nearest one and where all of them are described', async () => {
    const { json } = await gw.api({ Action: 'SendBatchUSMSMesage', AccountId: 1 });
    assert.equal(json.RetCode, RetCode.UnknownAction);
    assert.match(
      json.Message,
      /^Action "SendBatchUSMSMesage" is not supported; did you mean SendBatchUSMSMessage\? All \d+ Actions: docs\/api.md, or \/docs on this gateway\.$/,
    );
    const verb = await gw.api({ Action: 'SendSms', AccountId: 1 });
    assert.match(
      verb.json.Message,
      /^Action "SendSms" is not supported; did you mean SendMessage, SendUSMSMessage or SendBatchUSMSMessage\? All /,
    );
    const far = await gw.api({ Action: 'Frobnicate', AccountId: 1 });
    assert.match(far.json.Message, /^Action "Frobnicate" is not supported\. All \d+ Actions: /);
    assert.doesNotMatch(far.json.Message, /SendMessage/, 'no list of every Action');
  });

  it('a JSON body sent as a form (curl -d without Content-Type) says which header to send', async () => {
    const res = await fetch(`${gw.url}/api`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${gw.key}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: JSON.stringify({ Action: 'QueryUSMSTemplate', AccountId: 1 }),
    });
    const json = (await res.json()) as { RetCode: number; Message: string };
    assert.equal(json.RetCode, RetCode.MalformedRequest);
    assert.match(json.Message, /looks like JSON .*Content-Type: application\/json$/);
  });

  it('a body over the limit names the limit and the setting', async () => {
    const { status, json } = await gw.api(JSON.stringify({ Pad: 'x'.repeat(1_100_000) }));
    assert.equal(status, 413);
    assert.equal(json.RetCode, RetCode.LimitExceeded);
    assert.match(json.Message, /limit of 1048576 bytes \(the gateway's bodyLimitBytes setting/);
  });

  it('a webhook to a private address names the setting that allows it', async () => {
    const { json } = await gw.api({
      Action: 'CreateWebhookEndpoint',
      AccountId: 1,
      Url: 'http://10.0.0.1/hook',
      Events: ['message.receipt'],
    });
    assert.equal(json.RetCode, RetCode.InvalidParameter);
    assert.match(json.Message, /WIREBIRD_WEBHOOK_ALLOW_PRIVATE=1/);
  });

  it('invalid JSON names where it stopped', async () => {
    const { status, json } = await gw.api('{"Action":"QueryUSMSTemplate",}');
    assert.equal(status, 400);
    assert.equal(json.RetCode, RetCode.MalformedRequest);
    assert.match(json.Message, /^the request body is not valid JSON: .* at position 30/);
  });

  it('the whole dev-account.key line, or the admin key, on /api each say which key to use', async () => {
    const line = await gw.api(
      { Action: 'QueryUSMSTemplate', AccountId: 1, TemplateId: ['x'] },
      { key: `1:${gw.key}` },
    );
    assert.equal(line.json.RetCode, RetCode.Unauthenticated);
    assert.match(
      line.json.Message,
      /whole line of dev-account\.key; send only the key after the colon/,
    );
    const admin = await gw.api(
      { Action: 'QueryUSMSTemplate', AccountId: 1, TemplateId: ['x'] },
      { key: gw.adminKey },
    );
    assert.match(admin.json.Message, /that is the admin key, which \/admin takes/);
  });

  it('GET /api says to use POST', async () => {
    const res = await fetch(`${gw.url}/api`);
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'POST');
    const json = (await res.json()) as { RetCode: number; Message: string };
    assert.match(json.Message, /^use POST \/api with a JSON body/);
  });

  it('/console/ with the slash leads to the console, and the login page says where the keys are', async () => {
    const res = await fetch(`${gw.url}/console/`, { redirect: 'manual' });
    assert.equal(res.status, 303);
    const login = await (await fetch(`${gw.url}/console/login`)).text();
    assert.match(login, /data\/admin\.key/);
    assert.match(login, /data\/dev-account\.key/);
  });
});
