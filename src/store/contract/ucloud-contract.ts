import assert from 'node:assert/strict';
import { describe } from 'node:test';
import type { Store } from '../../domain/ports.js';
import { apiKey } from './api-keys-contract.js';
import type { Signature } from '../../domain/signatures/signature.js';
import { TemplateStatus } from '../../domain/templates/template.js';
import {
  ACCOUNT,
  DAY,
  NOW,
  OTHER_ACCOUNT,
  batch,
  report,
  sms,
  storeTest,
  submitAll,
  template,
  unique,
  type OpenStore,
} from './fixtures.js';

function signature(overrides: Partial<Signature> = {}): Signature {
  return {
    sigId: unique('USA'),
    accountId: ACCOUNT,
    sigContent: 'Wirebird',
    sigType: 1,
    sigPurpose: 0,
    certificateType: 2,
    description: 'our app',
    sceneDesc: 'logins',
    international: true,
    qualificationId: 'q-1',
    fileMediaId: 'wbm_file',
    proxyFileMediaId: '',
    status: TemplateStatus.Pending,
    errDesc: '',
    createdAt: NOW,
    updatedAt: NOW,
    version: 0,
    ...overrides,
  };
}

const key = (publicKey: string, accountId = ACCOUNT) => ({
  publicKey,
  accountId,
  sealedPrivateKey: `sealed-${publicKey}`,
  createdAt: NOW,
});

/** The key record a pair is added with. */
const record = (k: ReturnType<typeof key>) =>
  apiKey({
    keyId: `key_${k.publicKey}`,
    kind: 'ucloud',
    accountId: k.accountId,
    keyHash: `ucloud:${k.publicKey}`,
    prefix: k.publicKey,
  });

const add = (store: { addUcloudKey: Store['addUcloudKey'] }, k: ReturnType<typeof key>) =>
  store.addUcloudKey(k, record(k));

export function ucloudContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('UCloud key pairs', () => {
    test('a key pair is found by its public key, listed and deleted by its account only', async (store) => {
      const apiKeys = await store.countApiKeys();
      await add(store, key('pk-a'));
      await add(store, key('pk-b'));
      await add(store, key('pk-c', OTHER_ACCOUNT));
      assert.equal(await store.countApiKeys(), apiKeys, 'a key pair is no API key');
      assert.deepEqual(await store.getUcloudKey('pk-a'), key('pk-a'));
      assert.deepEqual(await store.apiKeyByHash('ucloud:pk-a'), record(key('pk-a')));
      assert.equal(await store.getUcloudKey('pk-x'), undefined);
      const mine = await store.listUcloudKeys(ACCOUNT);
      assert.deepEqual(
        mine.map((k) => k.publicKey),
        ['pk-a', 'pk-b'],
      );
      assert.equal(await store.deleteUcloudKey(ACCOUNT, 'pk-c'), false, "another account's");
      assert.ok(await store.getUcloudKey('pk-c'));
      assert.ok(await store.apiKeyByHash('ucloud:pk-c'));
      assert.equal(await store.deleteUcloudKey(ACCOUNT, 'pk-a'), true);
      assert.equal(await store.getUcloudKey('pk-a'), undefined);
      assert.equal(await store.apiKeyByHash('ucloud:pk-a'), undefined);
    });

    test('a public key is one key pair: adding it twice fails, and adds no record', async (store) => {
      await add(store, key('pk-a'));
      await assert.rejects(add(store, key('pk-a', OTHER_ACCOUNT)));
      assert.equal((await store.getUcloudKey('pk-a'))?.accountId, ACCOUNT);
      assert.equal((await store.apiKeyByHash('ucloud:pk-a'))?.accountId, ACCOUNT);
      assert.equal((await store.listApiKeys(OTHER_ACCOUNT)).length, 0);
    });
  });

  describe('signatures', () => {
    test('insertSignature then every read gives it back whole, to its account only', async (store) => {
      const s = signature();
      await store.insertSignature(s);
      await store.insertSignature(signature({ accountId: OTHER_ACCOUNT }));
      assert.deepEqual(await store.getSignatureById(s.sigId), s);
      assert.deepEqual(await store.getSignatures(ACCOUNT, [s.sigId, 'USA-missing']), [s]);
      assert.deepEqual(await store.getSignatures(OTHER_ACCOUNT, [s.sigId]), []);
      assert.deepEqual(await store.signaturesByContent(ACCOUNT, 'Wirebird'), [s]);
      assert.equal((await store.signaturesByContent(OTHER_ACCOUNT, 'Wirebird')).length, 1);
    });

    test('signaturesByContent answers the newest first', async (store) => {
      const old = signature({ createdAt: NOW });
      const fresh = signature({ createdAt: NOW + 1000 });
      await store.insertSignature(old);
      await store.insertSignature(fresh);
      const found = await store.signaturesByContent(ACCOUNT, 'Wirebird');
      assert.deepEqual(
        found.map((s) => s.sigId),
        [fresh.sigId, old.sigId],
      );
    });

    test('replaceSignature saves only over the version read, and bumps it', async (store) => {
      const s = signature();
      await store.insertSignature(s);
      const next = {
        ...s,
        sigContent: 'Renamed',
        status: TemplateStatus.Approved,
        updatedAt: NOW + 5,
      };
      assert.deepEqual(await store.replaceSignature(next), { ...next, version: 1 });
      assert.equal(await store.replaceSignature(next), undefined, 'stale version');
      assert.deepEqual(await store.getSignatureById(s.sigId), { ...next, version: 1 });
    });

    test('listSignatures filters by status and account', async (store) => {
      const a = signature({ status: TemplateStatus.Approved });
      const b = signature();
      const c = signature({ accountId: OTHER_ACCOUNT });
      for (const s of [a, b, c]) await store.insertSignature(s);
      const pending = await store.listSignatures({ status: TemplateStatus.Pending });
      assert.deepEqual(pending.map((s) => s.sigId).sort(), [b.sigId, c.sigId].sort());
      const mine = await store.listSignatures({ accountId: ACCOUNT });
      assert.deepEqual(mine.map((s) => s.sigId).sort(), [a.sigId, b.sigId].sort());
      assert.equal((await store.listSignatures({})).length, 3);
    });

    test("deleteSignatures deletes the account's own, answering which", async (store) => {
      const a = signature();
      const theirs = signature({ accountId: OTHER_ACCOUNT });
      await store.insertSignature(a);
      await store.insertSignature(theirs);
      assert.deepEqual(await store.deleteSignatures(ACCOUNT, [theirs.sigId, a.sigId, a.sigId]), [
        a.sigId,
      ]);
      assert.equal(await store.getSignatureById(a.sigId), undefined);
      assert.ok(await store.getSignatureById(theirs.sigId));
    });

    test("an approved signature is one of its account's senders; others are not", async (store) => {
      await store.ensureAccount(ACCOUNT, NOW);
      await store.insertSignature(
        signature({ sigContent: 'Approved', status: TemplateStatus.Approved }),
      );
      await store.insertSignature(signature({ sigContent: 'Waiting' }));
      await store.insertSignature(
        signature({
          sigContent: 'Theirs',
          accountId: OTHER_ACCOUNT,
          status: TemplateStatus.Approved,
        }),
      );
      await store.addSenderId(ACCOUNT, 'Registered', NOW);
      const found = await store.hasSenderIds(ACCOUNT, [
        'Approved',
        'Waiting',
        'Theirs',
        'Registered',
      ]);
      assert.deepEqual([...found].sort(), ['Approved', 'Registered']);
    });
  });

  describe('templates of the UCloud dialect', () => {
    test('International and UnsubscribeInfo are stored and read back', async (store) => {
      const t = template({ purpose: 3, international: true, unsubscribeInfo: '拒收请回复R' });
      await store.insertTemplate(t);
      assert.deepEqual(await store.getTemplateById(t.templateId), t);
      const next = { ...t, unsubscribeInfo: '', version: t.version };
      assert.equal((await store.replaceTemplate(next))?.unsubscribeInfo, '');
    });

    test("deleteTemplates deletes the account's own, answering which", async (store) => {
      const a = template();
      const theirs = template({ accountId: OTHER_ACCOUNT });
      await store.insertTemplate(a);
      await store.insertTemplate(theirs);
      assert.deepEqual(await store.deleteTemplates(ACCOUNT, [theirs.templateId, a.templateId]), [
        a.templateId,
      ]);
      assert.deepEqual(await store.getTemplates(ACCOUNT, [a.templateId]), []);
      assert.ok(await store.getTemplateById(theirs.templateId));
    });
  });

  describe('send statistics', () => {
    test('counts per UTC day, number and result, within the range and the account', async (store) => {
      const day0 = Math.floor(NOW / DAY) * DAY;
      await store.acceptBatch(
        batch([sms({ costCount: 2 }), sms({ costCount: 3 })], { acceptedAt: day0 + 1 }),
      );
      await store.acceptBatch(batch([sms()], { acceptedAt: day0 + DAY + 5 }));
      await store.acceptBatch(batch([sms()], { acceptedAt: day0 + 2 * DAY }));
      await store.acceptBatch(batch([sms()], { accountId: OTHER_ACCOUNT, acceptedAt: day0 + 1 }));
      const ids = await submitAll(store, day0 + 2 * DAY + 10);
      await store.applyReports(
        [report(ids[0] as string, 'delivered', day0 + 2 * DAY + 20)],
        day0 + 2 * DAY + 20,
      );
      const rows = await store.sendStatistics({
        accountId: ACCOUNT,
        from: day0,
        to: day0 + 2 * DAY,
      });
      const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      const sorted = [...rows].sort((a, b) =>
        `${a.sendDate}${a.result ?? ''}` < `${b.sendDate}${b.result ?? ''}` ? -1 : 1,
      );
      assert.deepEqual(
        sorted,
        [
          { sendDate: day(day0), e164: '+447700900123', result: null, count: 1, costCount: 3 },
          { sendDate: day(day0), e164: '+447700900123', result: 'Success', count: 1, costCount: 2 },
          {
            sendDate: day(day0 + DAY),
            e164: '+447700900123',
            result: null,
            count: 1,
            costCount: 1,
          },
        ].sort((a, b) =>
          `${a.sendDate}${a.result ?? ''}` < `${b.sendDate}${b.result ?? ''}` ? -1 : 1,
        ),
      );
    });

    test('with a purpose, only sends of templates of that purpose count', async (store) => {
      const promo = template({ accountId: ACCOUNT, purpose: 3 });
      await store.insertTemplate(promo);
      await store.acceptBatch(batch([sms({ templateId: promo.templateId }), sms()]));
      const of3 = await store.sendStatistics({
        accountId: ACCOUNT,
        from: NOW,
        to: NOW + 1,
        purpose: 3,
      });
      assert.equal(
        of3.reduce((n, r) => n + r.count, 0),
        1,
      );
      const all = await store.sendStatistics({ accountId: ACCOUNT, from: NOW, to: NOW + 1 });
      assert.equal(
        all.reduce((n, r) => n + r.count, 0),
        2,
      );
    });
  });
}
