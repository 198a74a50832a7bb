import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createScratchSchema, type ScratchSchema } from '../src/store/postgres/scratch-schema.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import { freePort, kill, spawnGateway, type GatewayProcess } from './helpers/process-gateway.js';
import { call } from './helpers/process-api.js';
import { approvedTemplate, cn, messageBody, registerBusinessPhone } from './helpers/sending.js';

type Json = Record<string, unknown>;

describe('API keys as records: scopes, revocation, rotation', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0 });
  });
  after(async () => gw.close());

  const newKey = async (accountId: number, body: Json = {}) => {
    const { status, json } = await gw.admin('POST', `/admin/accounts/${accountId}/keys`, body);
    assert.equal(status, 201, json.Message);
    return json as unknown as Json & { Key: string; KeyId: string };
  };
  const api = async (key: string, fields: Json, accountId = 1) =>
    (await gw.api({ AccountId: accountId, ...fields }, { key })).json;

  it('answers the key once, then lists it by id and prefix, never the key', async () => {
    const made = await newKey(1, { Name: 'billing', Scopes: ['send'] });
    assert.match(made.KeyId, /^key_/);
    assert.equal(made.Prefix, made.Key.slice(0, 7));
    assert.deepEqual(
      [made.Name, made.Scopes, made.State, made.Source],
      ['billing', ['send'], 'active', 'admin'],
    );
    const { json } = await gw.admin('GET', '/admin/accounts/1/keys');
    const listed = (json.DataSet as Json[]).find((k) => k.KeyId === made.KeyId);
    assert.equal(listed?.Name, 'billing');
    assert.ok(!JSON.stringify(json).includes(made.Key), 'the list never shows a key');
    const renamed = await gw.admin('PUT', `/admin/accounts/1/keys/${made.KeyId}`, {
      Name: 'payments',
    });
    assert.equal((renamed.json.Data as Json).Name, 'payments');
  });

  it('refuses each scope outside itself with RetCode 173 and HTTP 403', async () => {
    const tpl = await approvedTemplate(gw, 'Hello {1}');
    const send = (await newKey(1, { Scopes: ['send'] })).Key;
    const read = (await newKey(1, { Scopes: ['read'] })).Key;
    const templates = (await newKey(1, { Scopes: ['templates'] })).Key;
    const batch = {
      Action: 'SendBatchUSMSMessage',
      TaskContent: [{ TemplateId: tpl, Target: [{ Phone: cn(4101), TemplateParams: ['a'] }] }],
    };
    const sent = await api(send, batch);
    assert.equal(sent.RetCode, 0, sent.Message);
    const receipts = { Action: 'GetUSMSSendReceipt', SessionNoSet: [sent.SessionNo] };
    assert.equal((await api(read, receipts)).RetCode, 0);
    const template = {
      Action: 'CreateUSMSTemplate',
      Purpose: 2,
      TemplateName: 't',
      Template: 'Hi {1}',
    };
    assert.equal((await api(templates, template)).RetCode, 0);
    // A business message is a send too: a send key sends it, a read or templates key may not.
    await registerBusinessPhone(gw);
    const business = messageBody({ To: cn(4102) });
    const message = await api(send, business);
    assert.equal(message.RetCode, 0, message.Message);
    for (const [key, fields] of [
      [send, receipts],
      [read, batch],
      [templates, batch],
      [read, business],
      [templates, business],
      [send, template],
      [read, { Action: 'ListWebhookEndpoints' }],
    ] as const) {
      const { status, json } = await gw.api({ AccountId: 1, ...fields }, { key });
      assert.equal(json.RetCode, 173, `${String(fields.Action)}: ${json.Message}`);
      assert.equal(status, 403);
      assert.match(json.Message, /^the API key key_\S+ may only \w+; \w+ needs /);
    }
  });

  it('refuses a revoked key from the next request on, saying so', async () => {
    const made = await newKey(1);
    assert.equal((await api(made.Key, { Action: 'ListApiKeys' })).RetCode, 0);
    const { json } = await gw.admin('DELETE', `/admin/accounts/1/keys/${made.KeyId}?reason=leaked`);
    assert.deepEqual(
      [(json.Data as Json).State, (json.Data as Json).RevokeReason],
      ['revoked', 'leaked'],
    );
    const refused = await gw.api({ AccountId: 1, Action: 'ListApiKeys' }, { key: made.Key });
    assert.equal(refused.status, 401);
    assert.equal(refused.json.RetCode, 170);
    assert.match(
      refused.json.Message,
      new RegExp(`^the API key ${made.KeyId} was revoked at .+ \\(leaked\\)`),
    );
  });

  it('rotates: a new key at once, the old one until its grace ends', async () => {
    const made = await newKey(1, { Name: 'rotating', Scopes: ['read'] });
    const kept = await gw.admin('POST', `/admin/accounts/1/keys/${made.KeyId}/rotate`, {
      GraceSeconds: 3600,
    });
    const next = kept.json.Data as Json & { Key: string };
    assert.deepEqual([next.Name, next.Scopes, next.Source], ['rotating', ['read'], 'rotation']);
    assert.ok(((kept.json.Previous as Json).ExpireTime as number) > Date.now() / 1000 + 3500);
    const receipts = { Action: 'GetUSMSSendReceipt', SessionNoSet: ['none'] };
    assert.equal((await api(made.Key, receipts)).RetCode, 0, 'the old key works in its grace');
    assert.equal((await api(next.Key, receipts)).RetCode, 0);
    const ended = await gw.admin('POST', `/admin/accounts/1/keys/${String(next.KeyId)}/rotate`, {
      GraceSeconds: 0,
    });
    const refused = await api(next.Key, receipts);
    assert.equal(refused.RetCode, 170);
    assert.match(refused.Message, /expired at/);
    assert.equal((await api((ended.json.Data as { Key: string }).Key, receipts)).RetCode, 0);
  });

  it("lets an account's key list and revoke the account's keys only", async () => {
    const own = (await newKey(8)).Key;
    const other = await newKey(8, { Name: 'other' });
    const foreign = await newKey(9);
    const listed = await api(own, { Action: 'ListApiKeys' }, 8);
    assert.deepEqual(
      (listed.Data as Json[]).map((k) => k.AccountId),
      [8, 8],
    );
    const notMine = await api(own, { Action: 'RevokeApiKey', KeyId: foreign.KeyId }, 8);
    assert.equal(notMine.RetCode, 18010);
    const revoked = await api(
      own,
      { Action: 'RevokeApiKey', KeyId: other.KeyId, Reason: 'not used' },
      8,
    );
    assert.equal((revoked.Data as Json).State, 'revoked');
    assert.equal((await api(other.Key, { Action: 'ListApiKeys' }, 8)).RetCode, 170);
    assert.equal((await api(foreign.Key, { Action: 'ListApiKeys' }, 9)).RetCode, 0);
  });

  it('refuses names, scopes and expiries it cannot take, naming the field', async () => {
    const bad = async (body: Json) => (await gw.admin('POST', '/admin/accounts/1/keys', body)).json;
    assert.match(
      (await bad({ Scopes: ['everything'] })).Message,
      /^Scopes may hold send, read, templates/,
    );
    assert.match(
      (await bad({ ExpireTime: 1000 })).Message,
      /^ExpireTime must be a time in the future/,
    );
    assert.match(
      (await bad({ Name: 'x'.repeat(65) })).Message,
      /^Name must be at most 64 characters/,
    );
  });
});

const url = process.env.WIREBIRD_TEST_DATABASE_URL;
const onPostgres = process.env.WIREBIRD_TEST_STORE === 'postgres';

describe('API keys across restarts and nodes', () => {
  let scratch: ScratchSchema | undefined;
  const dirs: string[] = [];
  const running: GatewayProcess[] = [];
  const adminKey = 'keys-test-admin-key-0123456789';
  before(async () => {
    if (onPostgres) scratch = await createScratchSchema(url as string, 'wb_keys');
  });
  after(async () => {
    for (const g of running) await kill(g.child, 'SIGKILL');
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
    await scratch?.drop();
  });
  const node = async (dir: string, apiKeys: { accountId: number; key: string }[], db = scratch) => {
    const g = await spawnGateway(
      dir,
      await freePort(),
      { apiKeys, adminKey },
      db ? { DATABASE_URL: db.url } : {},
    );
    running.push(g);
    return g;
  };
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'wirebird-keys-'));
    dirs.push(d);
    return d;
  };
  const kept = { accountId: 1, key: 'keys-test-kept-0123456789abcdef' };
  const removed = { accountId: 1, key: 'keys-test-removed-0123456789abc' };

  it('revokes a key removed from WIREBIRD_API_KEYS at the next start', async () => {
    const d = dir();
    const first = await node(d, [kept, removed]);
    assert.equal((await call(first, { Action: 'ListApiKeys' }, removed.key)).RetCode, 0);
    await kill(first.child, 'SIGTERM');
    const second = await node(d, [kept]);
    const refused = await call(second, { Action: 'ListApiKeys' }, removed.key);
    assert.equal(refused.RetCode, 170);
    assert.match(String(refused.Message), /removed from WIREBIRD_API_KEYS/);
    const listed = await call(second, { Action: 'ListApiKeys' }, kept.key);
    const gone = (listed.Data as Record<string, unknown>[]).find((k) => k.State === 'revoked');
    assert.equal(gone?.Source, 'env');
    // Its use on the first node was written when that node stopped.
    assert.ok((gone.LastUseTime as number) > 0, 'the last use was kept');
    await kill(second.child, 'SIGTERM');
  });

  it(
    'refuses a key revoked on one node on the other at the next request',
    { skip: !url && 'WIREBIRD_TEST_DATABASE_URL is not set (two nodes share PostgreSQL)' },
    async () => {
      const shared = scratch ?? (await createScratchSchema(url as string, 'wb_keys_nodes'));
      try {
        const a = await node(dir(), [kept], shared);
        const b = await node(dir(), [kept], shared);
        const made = await fetch(`${a.url}/admin/accounts/1/keys`, {
          method: 'POST',
          headers: { authorization: `Bearer ${adminKey}` },
        });
        const { Key, KeyId } = (await made.json()) as { Key: string; KeyId: string };
        assert.equal((await call(b, { Action: 'ListApiKeys' }, Key)).RetCode, 0);
        await fetch(`${a.url}/admin/accounts/1/keys/${KeyId}`, {
          method: 'DELETE',
          headers: { authorization: `Bearer ${adminKey}` },
        });
        const refused = await call(b, { Action: 'ListApiKeys' }, Key);
        assert.equal(refused.RetCode, 170, 'refused by the other node at once');
      } finally {
        if (shared !== scratch) {
          for (const g of running.splice(0)) await kill(g.child, 'SIGKILL');
          await shared.drop();
        }
      }
    },
  );
});
