import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import { approvedTemplate, cn } from './helpers/sending.js';

/** The mistakes of a first hour (issue 20), each answered with what to do. */
describe('errors that say what to do', () => {
  let gw: TestGateway;
  let tpl: string;
  before(async () => {
    gw = await startTestGateway();
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

  it('an unknown TemplateId is said to be one, not "the number failed"', async () => {
    const { json } = await gw.api(batch([{ Phone: cn(1014) }], 'UTA-NOPE'));
    assert.equal(json.RetCode, RetCode.NothingAccepted);
    assert.equal(
      json.Message,
      'no message was accepted: TemplateId UTA-NOPE not found; see FailContent',
    );
  });

  it('an unknown Action names the nearest one and lists those supported', async () => {
    const { json } = await gw.api({ Action: 'SendBatchUSMSMesage', AccountId: 1 });
    assert.equal(json.RetCode, RetCode.UnknownAction);
    assert.match(
      json.Message,
      /^Action "SendBatchUSMSMesage" is not supported; did you mean SendBatchUSMSMessage\? Supported: SendMessage, /,
    );
    const far = await gw.api({ Action: 'Frobnicate', AccountId: 1 });
    assert.doesNotMatch(far.json.Message, /did you mean/);
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
