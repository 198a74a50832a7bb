import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { pino } from 'pino';
import type { PDU } from 'smpp';
import { checkConfig } from '../src/config/config.js';
import { RetCode } from '../src/domain/errors.js';
import { startGateway, type Gateway } from '../src/gateway/start-gateway.js';
import { Esme, status } from './helpers/esme.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import { postForm, signedForm, type KeyPair } from './helpers/ucloud.js';

type Json = Record<string, unknown>;

/** SMPP credentials and UCloud key pairs are key records: one lifecycle with API keys. */
describe('SMPP credentials and UCloud key pairs as key records', () => {
  let gw: TestGateway;
  const open: Esme[] = [];
  before(async () => {
    gw = await startTestGateway({
      simDelayMs: 0,
      smppServer: { listen: '127.0.0.1:0', bindTimeoutMs: 2000 },
    });
  });
  afterEach(async () => {
    for (const e of open.splice(0)) {
      e.close();
      await e.closed;
    }
  });
  after(() => gw.close());

  const esme = async () => {
    const e = await Esme.connect(gw.smppAddress as string);
    open.push(e);
    return e;
  };
  const credential = async (body: Json) => {
    const { status: code, json } = await gw.admin(
      'POST',
      '/admin/accounts/1/smpp-credentials',
      body,
    );
    assert.equal(code, 201, json.Message);
    return json;
  };
  const keyOf = async (keyId: unknown) => {
    const { json } = await gw.admin('GET', '/admin/accounts/1/keys');
    return (json.DataSet as Json[]).find((k) => k.KeyId === keyId);
  };
  const revoke = async (keyId: unknown, reason: string) => {
    const { status: code, json } = await gw.admin(
      'DELETE',
      `/admin/accounts/1/keys/${String(keyId)}?reason=${reason}`,
    );
    assert.equal(code, 200, json.Message);
  };
  const audited = async (action: string, target: unknown) => {
    const { json } = await gw.admin('GET', '/admin/audit?limit=500');
    return (json.DataSet as Json[]).filter((e) => e.Action === action && e.Target === target);
  };

  it('an SMPP credential is listed with the keys, and its scopes decide how it may bind', async () => {
    const made = await credential({
      SystemId: 'reports',
      Password: 'pw',
      Name: 'receipts only',
      Scopes: ['read'],
    });
    assert.deepEqual([made.Name, made.Scopes, made.State], ['receipts only', ['read'], 'active']);
    const record = await keyOf(made.KeyId);
    assert.deepEqual(
      [record?.Kind, record?.Prefix, record?.Scopes, record?.Source],
      ['smpp', 'reports', ['read'], 'admin'],
    );
    const sender = await esme();
    const refused = await sender.bind('reports', 'pw', 'transmitter');
    assert.equal(refused.command_status, status('ESME_RBINDFAIL'), 'no send scope');
    await sender.closed;
    const receiver = await esme();
    assert.equal((await receiver.bind('reports', 'pw', 'receiver')).command_status, 0);
    const listed = await gw.admin('GET', '/admin/accounts/1/smpp-credentials');
    const item = (listed.json.DataSet as Json[]).find((c) => c.SystemId === 'reports');
    assert.deepEqual([item?.KeyId, item?.State], [made.KeyId, 'active']);
  });

  it('revoking its record ends its open binds within a second, and refuses new ones', async () => {
    const made = await credential({ SystemId: 'leaky', Password: 'pw' });
    const bound = await esme();
    assert.equal((await bound.bind('leaky', 'pw')).command_status, 0);
    const unbinds: PDU[] = [];
    bound.session.on('pdu', (pdu: PDU) => {
      if (pdu.command === 'unbind') {
        unbinds.push(pdu);
        bound.session.send(pdu.response());
      }
    });
    const started = Date.now();
    await revoke(made.KeyId, 'leaked');
    await bound.closed;
    assert.ok(Date.now() - started < 2500, `ended after ${Date.now() - started} ms`);
    assert.equal(unbinds.length, 1, 'the server unbound first');
    const again = await esme();
    assert.equal((await again.bind('leaky', 'pw')).command_status, status('ESME_RBINDFAIL'));
    assert.equal((await keyOf(made.KeyId))?.RevokeReason, 'leaked');
    assert.equal((await audited('key.revoked', made.KeyId)).length, 1);
    // A revoked credential stays revoked: its system_id is not saved over, nor rotated.
    const resave = await gw.admin('POST', '/admin/accounts/1/smpp-credentials', {
      SystemId: 'leaky',
    });
    assert.equal(resave.status, 409);
    assert.match(resave.json.Message, /SystemId leaky was revoked \(leaked\); delete it/);
    // Another account learns only that the system_id is taken, nothing of its state.
    const other = await gw.admin('POST', '/admin/accounts/2/smpp-credentials', {
      SystemId: 'leaky',
    });
    assert.equal(other.status, 409);
    assert.match(other.json.Message, /^SystemId leaky belongs to another account/);
    assert.ok(!other.json.Message.includes('leaked'));
    assert.equal(
      (await gw.admin('DELETE', '/admin/accounts/1/smpp-credentials/leaky')).status,
      200,
    );
    assert.equal(await keyOf(made.KeyId), undefined, 'deleted with its record');
  });

  it('an SMPP credential or a key pair is not rotated: a second one is made instead', async () => {
    const made = await credential({ SystemId: 'steady', Password: 'pw' });
    const { status: code, json } = await gw.admin(
      'POST',
      `/admin/accounts/1/keys/${String(made.KeyId)}/rotate`,
      {},
    );
    assert.equal(code, 409);
    assert.match(json.Message, /^SMPP credential key_\S+ is not rotated: create another/);
    const scoped = await gw.admin('POST', '/admin/accounts/1/smpp-credentials', {
      SystemId: 'steady',
      Scopes: ['send'],
    });
    assert.equal(scoped.status, 409, 'scopes are fixed at creation');
    assert.match(scoped.json.Message, /Scopes \[\], fixed when it was created/);
  });

  it('a UCloud key pair answers to its scopes and its revocation like an API key', async () => {
    const { status: code, json } = await gw.admin('POST', '/admin/accounts/1/ucloud-keys', {
      Name: 'reader',
      Scopes: ['read'],
    });
    assert.equal(code, 201, json.Message);
    const pair: KeyPair = {
      publicKey: String(json.PublicKey),
      privateKey: String(json.PrivateKey),
    };
    assert.deepEqual([(await keyOf(json.KeyId))?.Kind, json.Scopes], ['ucloud', ['read']]);
    const read = { Action: 'GetUSMSSendReceipt', SessionNoSet: ['none'] };
    assert.equal((await postForm(gw, signedForm(read, pair))).json.RetCode, 0);
    const send = await postForm(
      gw,
      signedForm(
        { Action: 'SendUSMSMessage', PhoneNumbers: ['13800138000'], TemplateId: 'UTA1' },
        pair,
      ),
    );
    assert.equal(send.json.RetCode, RetCode.OutOfScope);
    assert.match(
      send.json.Message,
      new RegExp(`the UCloud key pair ${String(json.KeyId)} may only read`),
    );
    await revoke(json.KeyId, 'rotated%20out');
    const refused = await postForm(gw, signedForm(read, pair));
    assert.equal(refused.json.RetCode, RetCode.Unauthenticated);
    assert.match(
      refused.json.Message,
      new RegExp(`the UCloud key pair ${String(json.KeyId)} was revoked at .* \\(rotated out\\)`),
    );
    const listed = await gw.admin('GET', '/admin/accounts/1/ucloud-keys');
    const item = (listed.json.DataSet as Json[]).find((k) => k.PublicKey === pair.publicKey);
    assert.equal(item?.State, 'revoked');
  });
});

/** The environment's credentials, SQLite in one data directory across restarts. */
describe('SMPP credentials and UCloud key pairs from the environment', () => {
  const silent = pino({ level: 'silent' });
  const dataDir = mkdtempSync(join(tmpdir(), 'wirebird-env-credentials-'));
  const running: Gateway[] = [];
  after(async () => {
    for (const g of running) await g.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const start = async (esmes: Json[], ucloudKeys: Json[]) => {
    const config = checkConfig({
      port: 0,
      dataDir,
      logLevel: 'silent',
      ucloudKeys,
      smppServer: { listen: '127.0.0.1:0', esmes },
    });
    const gw = await startGateway(config, silent);
    running.push(gw);
    return gw;
  };
  const stop = async (gw: Gateway) => {
    running.splice(running.indexOf(gw), 1);
    await gw.stop();
  };
  const esme = { accountId: 1, systemId: 'fromenv', password: 'pw' };
  const pair = {
    accountId: 1,
    publicKey: 'wbpk_env_pair',
    privateKey: 'env-private-key-0123456789',
  };

  it('revokes those removed from WIREBIRD_SMPP_ESMES and WIREBIRD_UCLOUD_KEYS at the next start', async () => {
    const first = await start([esme], [pair]);
    const records = (await first.store.listApiKeys(1)).filter((k) => k.kind !== 'api');
    assert.deepEqual(records.map((k) => [k.kind, k.source, k.revokedAt]).sort(), [
      ['smpp', 'env', undefined],
      ['ucloud', 'env', undefined],
    ]);
    await stop(first);
    const second = await start([], []);
    const after = (await second.store.listApiKeys(1)).filter((k) => k.kind !== 'api');
    assert.deepEqual(after.map((k) => k.revokedReason).sort(), [
      'removed from WIREBIRD_SMPP_ESMES',
      'removed from WIREBIRD_UCLOUD_KEYS',
    ]);
    const bind = await Esme.connect(second.smppAddress as string);
    assert.equal((await bind.bind('fromenv', 'pw')).command_status, status('ESME_RBINDFAIL'));
    await bind.closed;
    const form = signedForm({ Action: 'GetUSMSSendReceipt', SessionNoSet: ['x'] }, pair);
    const res = await fetch(`${second.url}/api`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
    });
    const answer = (await res.json()) as Json;
    assert.equal(answer.RetCode, RetCode.Unauthenticated);
    assert.match(String(answer.Message), /removed from WIREBIRD_UCLOUD_KEYS/);
    await stop(second);
  });
});
