import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { consoleLogin, flat, type ConsoleClient } from './helpers/console-client.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';

/** A second browser holding a copy of `client`'s cookie, as a thief of it would. */
async function copiedCookieStatus(gw: TestGateway, client: ConsoleClient): Promise<number> {
  const r = await fetch(`${gw.url}/console/inbox`, {
    headers: { cookie: client.cookie },
    redirect: 'manual',
  });
  return r.status;
}

describe('console sessions kept server-side', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(async () => gw.close());

  const newKey = async (accountId: number) =>
    (await gw.admin('POST', `/admin/accounts/${accountId}/keys`)).json as unknown as {
      Key: string;
      KeyId: string;
    };

  it('refuses a cookie copied before logout once the session logged out', async () => {
    const viewer = await consoleLogin(gw.url, gw.key);
    assert.equal(await copiedCookieStatus(gw, viewer), 200);
    const out = await viewer.post('/console/logout');
    assert.equal(out.location, '/console/login');
    assert.equal(await copiedCookieStatus(gw, viewer), 303, 'the copy now goes to the login page');
  });

  it('ends an account session when the key it was opened with is revoked', async () => {
    const { Key, KeyId } = await newKey(1);
    const viewer = await consoleLogin(gw.url, Key);
    assert.equal(await copiedCookieStatus(gw, viewer), 200);
    await gw.admin('DELETE', `/admin/accounts/1/keys/${KeyId}`);
    assert.equal(await copiedCookieStatus(gw, viewer), 303);
  });

  it('lists the open sessions to the admin and logs everyone out at once', async () => {
    const admin = await consoleLogin(gw.url, gw.adminKey);
    const account = await consoleLogin(gw.url, gw.key);
    const { json } = await gw.admin('GET', '/admin/console-sessions');
    const open = json.DataSet as { Role: string; AccountId: number | null; Address: string }[];
    assert.ok(open.some((s) => s.Role === 'admin' && s.AccountId === null));
    assert.ok(open.some((s) => s.Role === 'account' && s.AccountId === 1));
    assert.ok(open.every((s) => s.Address === '127.0.0.1'));
    const keys = await admin.get('/console/keys');
    assert.match(flat(keys.text), /<h1>Console sessions<\/h1>/);
    const ended = await gw.admin('DELETE', '/admin/console-sessions');
    assert.ok((ended.json.Ended as number) >= 2);
    assert.equal(await copiedCookieStatus(gw, admin), 303);
    assert.equal(await copiedCookieStatus(gw, account), 303);
    assert.deepEqual((await gw.admin('GET', '/admin/console-sessions')).json.DataSet, []);
  });

  it('creates an API key in the console, shown once, and revokes it there', async () => {
    const admin = await consoleLogin(gw.url, gw.adminKey);
    await admin.get('/console/keys?account=3');
    const made = await admin.post('/console/keys/api', {
      account: '3',
      name: 'console-made',
      scope_read: 'on',
    });
    assert.equal(made.status, 200);
    const key = /<code class="api-key">([^<]+)<\/code>/.exec(made.text)?.[1] as string;
    const keyId = /data-key-id="(key_[^"]+)"/.exec(made.text)?.[1] as string;
    assert.ok(key.startsWith('wb_') && keyId, 'the key is shown once');
    const receipts = { Action: 'GetUSMSSendReceipt', AccountId: 3, SessionNoSet: ['none'] };
    assert.equal((await gw.api(receipts, { key })).json.RetCode, 0);
    const listed = await admin.get('/console/keys?account=3');
    assert.ok(!listed.text.includes(key), 'never shown again');
    await admin.post('/console/keys/api/revoke', { account: '3', keyId });
    assert.equal((await gw.api(receipts, { key })).json.RetCode, 170);
  });
});
