import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { TemplateStatus } from '../src/domain/templates/template.js';
import { consoleLogin, type ConsoleClient } from './helpers/console-client.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import { accountKey } from './helpers/sending.js';
import { keyPair, postForm, signedForm } from './helpers/ucloud.js';

describe('console: UCloud key pairs and signature review', () => {
  let gw: TestGateway;
  let admin: ConsoleClient;
  before(async () => {
    gw = await startTestGateway();
    admin = await consoleLogin(gw.url, gw.adminKey);
  });
  after(() => gw.close());

  it('creates a key pair, shows its private key once, and the pair signs requests', async () => {
    await admin.get('/console/keys?account=1');
    const created = await admin.post('/console/keys', { account: '1' });
    assert.equal(created.status, 200);
    const publicKey = /class="public-key">([^<]+)</.exec(created.text)?.[1];
    const privateKey = /class="private-key">([^<]+)</.exec(created.text)?.[1];
    assert.ok(publicKey && privateKey, 'the new pair is shown');
    const query = { Action: 'QueryUSMSTemplate', TemplateId: 'UTA-none' };
    const signed = await postForm(gw, signedForm(query, { publicKey, privateKey }));
    assert.equal(signed.json.RetCode, RetCode.NotFound, 'authenticated, then not found');
    const listed = await admin.get('/console/keys?account=1');
    assert.ok(listed.text.includes(publicKey));
    assert.ok(!listed.text.includes(privateKey), 'never shown again');
  });

  it('deletes a key pair: requests signed with it are refused from then on', async () => {
    const created = await admin.post('/console/keys', { account: '1' });
    const publicKey = /class="public-key">([^<]+)</.exec(created.text)?.[1] as string;
    const privateKey = /class="private-key">([^<]+)</.exec(created.text)?.[1] as string;
    await admin.get('/console/keys?account=1');
    const gone = await admin.post('/console/keys/delete', { account: '1', publicKey });
    assert.equal(gone.status, 303);
    const form = signedForm(
      { Action: 'QueryUSMSTemplate', TemplateId: 'x' },
      { publicKey, privateKey },
    );
    assert.equal((await postForm(gw, form)).json.RetCode, RetCode.UnknownPublicKey);
  });

  it("an account's viewer sees and makes only its own account's key pairs", async () => {
    const viewer = await consoleLogin(gw.url, await accountKey(gw, 7));
    await viewer.get('/console/keys?account=1');
    const page = await viewer.post('/console/keys', { account: '1' });
    const publicKey = /class="public-key">([^<]+)</.exec(page.text)?.[1] as string;
    assert.equal(
      (await gw.store.getUcloudKey(publicKey))?.accountId,
      7,
      'made for its own account',
    );
    const mine = await viewer.get('/console/keys?account=1');
    assert.ok(mine.text.includes('Create a key pair for account 7'));
  });

  it('SMPP credentials: created with the password shown once, listed, deleted; own account only', async () => {
    await admin.get('/console/keys?account=1');
    const made = await admin.post('/console/keys/smpp', {
      account: '1',
      systemId: 'console1',
      networks: '10.0.0.0/8, 127.0.0.1',
    });
    assert.equal(made.status, 200);
    const password = /class="smpp-password">([^<]+)</.exec(made.text)?.[1];
    assert.match(password ?? '', /^[A-Za-z2-9]{8}$/);
    const stored = await gw.store.getSmppCredential('console1');
    assert.deepEqual(stored?.allowedNetworks, ['10.0.0.0/8', '127.0.0.1/32']);
    const listed = await admin.get('/console/keys?account=1');
    assert.ok(listed.text.includes('<code>console1</code>'));
    assert.ok(!listed.text.includes(password as string), 'the password is never shown again');
    const bad = await admin.post('/console/keys/smpp', { account: '1', systemId: 'x'.repeat(16) });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /SystemId must be 1 to 15 visible ASCII characters/);
    const viewer = await consoleLogin(gw.url, await accountKey(gw, 8));
    await viewer.get('/console/keys');
    const theirs = await viewer.post('/console/keys/smpp/delete', {
      account: '1',
      systemId: 'console1',
    });
    assert.equal(theirs.status, 404, "another account's credential is not found");
    await admin.get('/console/keys?account=1');
    const gone = await admin.post('/console/keys/smpp/delete', {
      account: '1',
      systemId: 'console1',
    });
    assert.equal(gone.status, 303);
    assert.equal(await gw.store.getSmppCredential('console1'), undefined);
  });

  it('makes SMPP credentials and key pairs with a name and scopes, listed and revoked as keys', async () => {
    await admin.get('/console/keys?account=1');
    const smpp = await admin.post('/console/keys/smpp', {
      account: '1',
      systemId: 'reader',
      name: 'receipts feed',
      scope_read: 'on',
    });
    assert.equal(smpp.status, 200);
    const pair = await admin.post('/console/keys', {
      account: '1',
      name: 'nightly',
      scope_send: 'on',
    });
    assert.equal(pair.status, 200);
    const records = (await gw.store.listApiKeys(1)).filter((k) => k.kind !== 'api');
    // The pairs made by the tests above have no name: these are the named ones.
    const byKind = (kind: string) => records.find((k) => k.kind === kind && k.name !== '');
    assert.deepEqual(
      [byKind('smpp')?.name, byKind('smpp')?.scopes, byKind('smpp')?.source],
      ['receipts feed', ['read'], 'console'],
    );
    assert.deepEqual([byKind('ucloud')?.name, byKind('ucloud')?.scopes], ['nightly', ['send']]);
    const page = await admin.get('/console/keys?account=1');
    const row =
      /<tr data-key-id="(key_[^"]+)"><td><code>[^<]+<\/code><\/td><td>SMPP credential<\/td><td><code>reader<\/code>/.exec(
        page.text,
      );
    assert.ok(row, 'the SMPP credential is listed among the keys');
    const revoked = await admin.post('/console/keys/api/revoke', {
      account: '1',
      keyId: row[1] ?? '',
    });
    assert.equal(revoked.status, 303);
    assert.notEqual((await gw.store.apiKeyByHash('smpp:reader'))?.revokedAt, undefined);
  });

  it('lists signatures on the Templates page, and the admin approves one there', async () => {
    const pair = await keyPair(gw, 1);
    const create = {
      Action: 'CreateUSMSSignature',
      SigContent: 'Acme',
      SigType: 0,
      SigPurpose: 0,
      CertificateType: 0,
      Description: 'our company',
    };
    const { json } = await postForm(gw, signedForm(create, pair));
    assert.equal(json.RetCode, 0, json.Message);
    const sigId = json.SigId as string;
    const templates = await admin.get('/console/templates');
    assert.match(templates.text, new RegExp(`id="signature-${sigId}" data-status="0"`));
    const approved = await admin.post(`/console/signatures/${sigId}/approve`);
    assert.equal(approved.status, 303);
    assert.equal((await gw.store.getSignatureById(sigId))?.status, TemplateStatus.Approved);
  });
});
