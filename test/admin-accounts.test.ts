import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashKey } from '../src/core/auth.js';
import { RetCode } from '../src/domain/errors.js';
import { sqliteOnly, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { createTemplate, newAccountKey, queryTemplates } from './helpers/templates.js';

/** The SQLite file and its write-ahead log, as bytes: where a stored key would be. */
function databaseBytes(dataDir: string): Buffer {
  const files = ['wirebird.db', 'wirebird.db-wal'].map((f) => join(dataDir, f));
  return Buffer.concat(files.filter((f) => existsSync(f)).map((f) => readFileSync(f)));
}

describe('admin API: accounts', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw.close());

  const post = (path: string, body?: unknown, key?: string | null) =>
    gw.admin('POST', path, body, key);

  it('POST /admin/accounts/{id}/keys answers 201 with a Key for that account', async () => {
    const { status, json } = await post('/admin/accounts/2/keys');
    assert.equal(status, 201);
    assert.equal(json.RetCode, 0);
    assert.equal(json.AccountId, 2);
    const key = json.Key as string;
    assert.ok(key.length >= 20);
    assert.ok(await gw.store.accountExists(2));
    const record = await gw.store.apiKeyByHash(hashKey(key));
    assert.equal(record?.accountId, 2);
    assert.equal(json.KeyId, record.keyId);
    assert.equal(json.Prefix, key.slice(0, 7));
  });

  it('the new key authenticates for its account and no other', async () => {
    const key = await newAccountKey(gw, 3);
    const id = await createTemplate(gw, { AccountId: 3 }, key);
    const own = await queryTemplates(gw, [id], { accountId: 3, key });
    assert.equal(own.json.RetCode, 0, own.json.Message);
    const other = await queryTemplates(gw, [id], { accountId: 1, key });
    assert.equal(other.status, 403);
    assert.equal(other.json.RetCode, RetCode.PermissionDenied);
    const dev = await queryTemplates(gw, [id], { accountId: 3 });
    assert.equal(dev.status, 403, "the dev key does not open account 3's templates");
  });

  it('gives a new, different key on each call, and both work', async () => {
    const a = await newAccountKey(gw, 4);
    const b = await newAccountKey(gw, 4);
    assert.notEqual(a, b);
    for (const key of [a, b]) {
      const { json } = await queryTemplates(gw, ['UTANONE'], { accountId: 4, key });
      assert.equal(json.RetCode, RetCode.NotFound, 'authenticated, then not found');
    }
  });

  it('does not store the key in plain text (database and WAL files)', sqliteOnly, async () => {
    const key = await newAccountKey(gw, 5);
    const bytes = databaseBytes(gw.dataDir);
    assert.ok(bytes.includes(hashKey(key)), 'the files read are the ones that hold the keys');
    assert.ok(!bytes.includes(key), 'the key itself must not be stored');
    assert.ok(!bytes.includes(gw.key), 'nor the dev key');
  });

  it('POST /admin/accounts/{id}/sender-ids stores the SenderId (201)', async () => {
    const { status, json } = await post('/admin/accounts/2/sender-ids', { SenderId: 'WIREBIRD' });
    assert.equal(status, 201, json.Message);
    assert.equal(json.RetCode, 0);
    assert.equal(json.SenderId, 'WIREBIRD');
    const has = await gw.store.hasSenderIds(2, ['WIREBIRD', 'OTHER']);
    assert.deepEqual([...has], ['WIREBIRD']);
    assert.equal((await gw.store.hasSenderIds(1, ['WIREBIRD'])).size, 0, 'for account 2 only');
  });

  it('refuses a bad SenderId with 400 naming SenderId and stores nothing', async () => {
    const cases: [unknown, number][] = [
      ['', RetCode.MissingParameter],
      [undefined, RetCode.MissingParameter],
      ['way too long sender id!', RetCode.InvalidParameter],
      ['BAD-ID', RetCode.InvalidParameter],
      [42, RetCode.InvalidParameter],
    ];
    for (const [senderId, code] of cases) {
      const { status, json } = await post('/admin/accounts/6/sender-ids', { SenderId: senderId });
      assert.equal(status, 400, String(senderId));
      assert.equal(json.RetCode, code, String(senderId));
      assert.match(json.Message, /SenderId/);
    }
    const tooLong = await gw.store.hasSenderIds(6, ['way too long sender id!', 'BAD-ID']);
    assert.equal(tooLong.size, 0);
  });

  it('POST /admin/accounts/{id}/business-phones stores the number in E.164 (201)', async () => {
    const { status, json } = await post('/admin/accounts/2/business-phones', {
      BusinessPhone: '+8613800000000',
    });
    assert.equal(status, 201, json.Message);
    assert.equal(json.RetCode, 0);
    assert.equal(json.BusinessPhone, '+8613800000000');
    const phone = await gw.store.getBusinessPhone(2, '+8613800000000');
    assert.equal(phone?.businessPhone, '+8613800000000');
    assert.equal(phone.accountId, 2);
  });

  it('normalises a business phone written with spaces to E.164', async () => {
    const { status, json } = await post('/admin/accounts/2/business-phones', {
      BusinessPhone: '+86 138 0013 8000',
    });
    assert.equal(status, 201, json.Message);
    assert.equal(json.BusinessPhone, '+8613800138000');
    assert.ok(await gw.store.getBusinessPhone(2, '+8613800138000'));
  });

  it('refuses a junk business phone with 400 naming BusinessPhone', async () => {
    for (const phone of ['not a phone', '+1', '', 12345]) {
      const { status, json } = await post('/admin/accounts/2/business-phones', {
        BusinessPhone: phone,
      });
      assert.equal(status, 400, String(phone));
      assert.match(json.Message, /BusinessPhone/);
      assert.ok(
        json.RetCode === RetCode.InvalidParameter || json.RetCode === RetCode.MissingParameter,
      );
    }
  });

  it('refuses a non-numeric or non-positive account id in the path with 400', async () => {
    for (const id of ['abc', '0', '-1', '1.5', '1e3']) {
      for (const [path, body] of [
        ['keys', undefined],
        ['sender-ids', { SenderId: 'WIREBIRD' }],
        ['business-phones', { BusinessPhone: '+8613800000000' }],
      ] as const) {
        const { status, json } = await post(`/admin/accounts/${id}/${path}`, body);
        assert.equal(status, 400, `${id}/${path}`);
        assert.equal(json.RetCode, RetCode.InvalidParameter);
        assert.match(json.Message, /AccountId/);
      }
    }
    assert.equal(await gw.store.accountExists(0), false);
  });

  it('refuses the account routes without the admin key (401), storing nothing', async () => {
    for (const key of [null, 'wba_not-the-admin-key-at-all', gw.key]) {
      const keys = await post('/admin/accounts/9/keys', undefined, key);
      assert.equal(keys.status, 401);
      assert.equal(keys.json.RetCode, RetCode.Unauthenticated);
      assert.equal(keys.json.Key, undefined);
      const sender = await post('/admin/accounts/9/sender-ids', { SenderId: 'WIREBIRD' }, key);
      assert.equal(sender.status, 401);
    }
    assert.equal(await gw.store.accountExists(9), false);
  });
});
