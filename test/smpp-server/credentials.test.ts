import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../../src/domain/errors.js';
import { verifyPassword } from '../../src/crypto/password.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const path = (accountId: number) => `/admin/accounts/${accountId}/smpp-credentials`;

describe('SMPP server credentials: admin API and the environment', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      smppServer: { esmes: [{ accountId: 3, systemId: 'seeded', password: 'pw3' }] },
    });
  });
  after(() => gw.close());

  it('creates one with a made-up password shown once, kept only as a hash', async () => {
    const { status, json } = await gw.admin('POST', path(1), {
      SystemId: 'kannel',
      AllowedNetworks: ['127.0.0.1', '10.0.0.0/8'],
      MaxTps: 50,
    });
    assert.equal(status, 201, json.Message);
    assert.match(String(json.Password), /^[A-Za-z2-9]{8}$/);
    assert.deepEqual(json.AllowedNetworks, ['127.0.0.1/32', '10.0.0.0/8']);
    assert.deepEqual([json.MaxBinds, json.MaxTps, json.Window], [4, 50, 10]);
    const stored = await gw.store.getSmppCredential('kannel');
    assert.ok(stored && !stored.passwordHash.includes(String(json.Password)));
    assert.equal(await verifyPassword(String(json.Password), stored.passwordHash), true);
    const listed = await gw.admin('GET', path(1));
    const item = (listed.json.DataSet as Record<string, unknown>[])[0];
    assert.equal(item?.SystemId, 'kannel');
    assert.ok(!('Password' in item) && !JSON.stringify(listed.json).includes('scrypt'));
  });

  it("refuses bad fields by name and another account's system_id", async () => {
    const bad = [
      [{ SystemId: 'x'.repeat(16) }, /SystemId must be 1 to 15 visible ASCII/],
      [{ SystemId: 'ok', Password: '123456789' }, /Password must be 1 to 8/],
      [
        { SystemId: 'ok', AllowedNetworks: ['10.0.0.0/33'] },
        /AllowedNetworks holds "10.0.0.0\/33"/,
      ],
      [{ SystemId: 'ok', MaxBinds: 0 }, /MaxBinds must be a whole number from 1 to 64/],
    ] as const;
    for (const [body, message] of bad) {
      const { status, json } = await gw.admin('POST', path(1), body);
      assert.equal(status, 400);
      assert.equal(json.RetCode, RetCode.InvalidParameter);
      assert.match(json.Message, message);
    }
    await gw.admin('POST', path(1), { SystemId: 'mine', Password: 'a' });
    const theft = await gw.admin('POST', path(2), { SystemId: 'mine', Password: 'b' });
    assert.equal(theft.status, 409);
    assert.match(theft.json.Message, /SystemId mine belongs to another account/);
  });

  it('deletes only its own account’s; the environment seeds its own', async () => {
    assert.equal((await gw.admin('DELETE', `${path(2)}/mine`)).status, 404);
    assert.equal((await gw.admin('DELETE', `${path(1)}/mine`)).status, 200);
    assert.equal(await gw.store.getSmppCredential('mine'), undefined);
    const seeded = await gw.store.getSmppCredential('seeded');
    assert.equal(seeded?.accountId, 3);
    assert.equal(await verifyPassword('pw3', seeded.passwordHash), true);
    assert.equal((await gw.admin('GET', path(1), undefined, null)).status, 401);
  });
});
