import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../src/config/config.js';
import { openStore } from '../src/store/open-store.js';
import { runStoreCli } from './helpers/cli.js';
import { consoleLogin } from './helpers/console-client.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import { approvedTemplate } from './helpers/sending.js';

type Entry = {
  Actor: string;
  Action: string;
  Target: string;
  AccountId: number | null;
  Detail: object;
};

describe('the audit log', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ webhooks: { allowPrivate: true } });
  });
  after(async () => gw.close());

  const log = async (query = ''): Promise<Entry[]> => {
    const { status, json } = await gw.admin('GET', `/admin/audit${query}`);
    assert.equal(status, 200, json.Message);
    return json.DataSet as Entry[];
  };
  const api = async (fields: Record<string, unknown>, key = gw.key) => {
    const { json } = await gw.api({ AccountId: 1, ...fields }, { key });
    assert.equal(json.RetCode, 0, json.Message);
    return json;
  };

  it('records changes made with an account key, by key id, and never a secret', async () => {
    const devKeyId = (await gw.store.listApiKeys(1))[0]?.keyId as string;
    const tpl = await api({
      Action: 'CreateUSMSTemplate',
      Purpose: 2,
      TemplateName: 'audited',
      Template: 'Hi {1}',
    });
    await api({
      Action: 'UpdateUSMSTemplate',
      TemplateId: tpl.TemplateId,
      TemplateName: 'audited too',
    });
    const hook = await api({ Action: 'CreateWebhookEndpoint', Url: 'http://127.0.0.1:9/hook' });
    await api({ Action: 'RotateWebhookSecret', EndpointId: hook.EndpointId });
    // Typed nationally: logged as stored, in E.164, as the business phone's entry is.
    await api({ Action: 'CreateOptOut', Phones: ['138 0000 9999'] });
    await api({ Action: 'UpdateOptOutSettings', OptOutKeywords: ['STOP', 'QUIT'] });
    const mine = (await log('?accountId=1')).filter((e) => e.Actor === `key:${devKeyId}`);
    assert.deepEqual(mine.map((e) => [e.Action, e.Target]).reverse(), [
      ['template.created', tpl.TemplateId],
      ['template.updated', tpl.TemplateId],
      ['webhook.created', hook.EndpointId],
      ['webhook.secret_rotated', hook.EndpointId],
      ['opt_out.added', '+8613800009999'],
      ['opt_out.settings_changed', 'settings'],
    ]);
    assert.deepEqual(mine.at(-2)?.Detail, { Fields: ['TemplateName'] });
    const text = JSON.stringify(await log());
    assert.ok(
      !text.includes(String(hook.Secret)) && !text.includes(gw.key),
      'no secret in the log',
    );
  });

  it('records the admin API, the console and the reviews, each by who did it', async () => {
    const made = (await gw.admin('POST', '/admin/accounts/4/keys', { Name: 'ops' })).json;
    await gw.admin('DELETE', `/admin/accounts/4/keys/${String(made.KeyId)}?reason=leaked`);
    const tpl = await approvedTemplate(gw, 'Hello {1}');
    const admin = await consoleLogin(gw.url, gw.adminKey);
    await admin.get('/console/opt-outs?account=1');
    await admin.post('/console/opt-outs', { account: '1', phones: '+8613800008888' });
    const entries = await log();
    const find = (action: string, target: string) =>
      entries.find((e) => e.Action === action && e.Target === target);
    assert.equal(find('key.created', String(made.KeyId))?.Actor, 'admin');
    assert.deepEqual(find('key.revoked', String(made.KeyId))?.Detail, { Reason: 'leaked' });
    assert.equal(find('key.revoked', String(made.KeyId))?.AccountId, 4);
    assert.equal(find('template.approved', tpl)?.Actor, 'admin');
    assert.equal(find('opt_out.added', '+8613800008888')?.Actor, 'console:admin');
    assert.ok(!JSON.stringify(entries).includes(String(made.Key)), 'never the key');
    const page = await admin.get('/console/audit');
    assert.match(page.text, /opt_out\.added/);
  });

  it('records signatures, business phones and webhook replays, by who did each', async () => {
    const sig = await api({
      Action: 'CreateUSMSSignature',
      SigContent: 'Audited Co',
      SigType: 0,
      SigPurpose: 0,
      CertificateType: 0,
      Description: 'our company',
    });
    await gw.admin('POST', `/admin/signatures/${String(sig.SigId)}/approve`);
    await gw.admin('POST', '/admin/accounts/1/business-phones', {
      BusinessPhone: '+8613800007777',
    });
    const hook = await api({ Action: 'CreateWebhookEndpoint', Url: 'http://127.0.0.1:9/replay' });
    const test = await api({ Action: 'SendWebhookTestEvent', EndpointId: hook.EndpointId });
    await api({
      Action: 'ReplayWebhookEvents',
      EventId: test.EventId,
      EndpointId: hook.EndpointId,
    });
    const entries = await log('?accountId=1');
    const who = (action: string, target: string) =>
      entries.find((e) => e.Action === action && e.Target === target)?.Actor;
    assert.match(String(who('signature.created', String(sig.SigId))), /^key:key_/);
    assert.equal(who('signature.approved', String(sig.SigId)), 'admin');
    assert.equal(who('business_phone.registered', '+8613800007777'), 'admin');
    assert.match(String(who('webhook.replayed', String(test.EventId))), /^key:key_/);
    assert.equal(
      who('webhook.test', String(hook.EndpointId)),
      undefined,
      'a test event changes nothing',
    );
  });

  it('pages back with NextCursor and refuses a limit it cannot take', async () => {
    const first = (await gw.admin('GET', '/admin/audit?limit=2')).json;
    assert.equal((first.DataSet as Entry[]).length, 2);
    const next = (await gw.admin('GET', `/admin/audit?limit=2&before=${String(first.NextCursor)}`))
      .json;
    const ids = [
      ...(first.DataSet as { AuditId: number }[]),
      ...(next.DataSet as { AuditId: number }[]),
    ];
    assert.deepEqual(
      ids.map((e) => e.AuditId),
      [...ids.map((e) => e.AuditId)].sort((a, b) => b - a),
    );
    const bad = await gw.admin('GET', '/admin/audit?limit=5000');
    assert.equal(bad.status, 400);
    assert.match(bad.json.Message, /^limit must be 1 to 1000/);
  });
});

describe('the audit log of the CLI', () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'wirebird-audit-cli-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  it('records keys made, renamed, rotated and revoked with the CLI as actor cli', async () => {
    const made = await runStoreCli(dataDir, [
      'keys',
      'create',
      '--account',
      '5',
      '--name',
      'a',
      '--scopes',
      'send',
    ]);
    assert.equal(made.code, 0, made.stderr);
    const keyId = /KeyId +(key_\S+)/.exec(made.stdout)?.[1] as string;
    assert.equal(
      (await runStoreCli(dataDir, ['keys', 'rename', keyId, '--account', '5', '--name', 'b'])).code,
      0,
    );
    const rotated = await runStoreCli(dataDir, [
      'keys',
      'rotate',
      keyId,
      '--account',
      '5',
      '--grace',
      '0',
    ]);
    assert.equal(rotated.code, 0, rotated.stderr);
    const listed = await runStoreCli(dataDir, ['keys', 'list', '--account', '5']);
    assert.match(
      listed.stdout,
      new RegExp(`^${keyId}  api  wb_\\S{4}…  expired  scopes=send  b$`, 'm'),
    );
    const store = await openStore(loadConfig({ WIREBIRD_DATA_DIR: dataDir }));
    try {
      const entries = await store.listAudit({ accountId: 5, limit: 10 });
      assert.deepEqual(entries.map((e) => [e.actor, e.action, e.target]).reverse(), [
        ['cli', 'key.created', keyId],
        ['cli', 'key.renamed', keyId],
        ['cli', 'key.rotated', keyId],
      ]);
    } finally {
      await store.close();
    }
  });
});
