import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { consoleLogin, flat, type ConsoleClient } from './helpers/console-client.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import { accountKey } from './helpers/sending.js';

/** The console's Policy page (docs/accounts.md): the admin changes it, an account reads it. */
describe('console: account policy', () => {
  let gw: TestGateway;
  let admin: ConsoleClient;
  before(async () => {
    gw = await startTestGateway();
    admin = await consoleLogin(gw.url, gw.adminKey);
  });
  after(() => gw.close());

  const doneOf = (location: string | null) =>
    new URL(location ?? '', 'http://x').searchParams.get('done') ?? '';
  const form = {
    account: '41',
    countries: 'us, gb',
    maxPerSecond: '',
    dailyLimit: '100',
    recipientHourlyLimit: '5',
    prepaid: 'on',
  };

  it('the admin saves a policy and adds credit; each lands in the store and the ledger', async () => {
    const key = await accountKey(gw, 41);
    await admin.get('/console/policy?account=41');
    const saved = await admin.post('/console/policy', form);
    assert.equal(saved.status, 303, saved.text);
    assert.equal(doneOf(saved.location), 'Policy saved');
    const credit = await admin.post('/console/policy/credit', {
      account: '41',
      costCount: '50',
      reference: 'invoice 7',
    });
    assert.equal(doneOf(credit.location), 'Credit added: balance 50');
    const view = await gw.admin('GET', '/admin/accounts/41/policy');
    assert.deepEqual(
      [view.json.Countries, view.json.DailyLimit, view.json.MaxPerSecond, view.json.Prepaid],
      [['GB', 'US'], 100, null, true],
    );
    const page = flat((await admin.get('/console/policy?account=41')).text);
    assert.match(page, /<td>invoice 7<\/td>/);
    assert.match(page, /name="countries" value="GB, US"/);
    const own = await consoleLogin(gw.url, key);
    const mine = flat((await own.get('/console/policy')).text);
    assert.match(mine, /<th>DailyLimit<\/th><td>100<\/td>/);
    assert.doesNotMatch(mine, /<form method="post" action="\/console\/policy"/);
    const refused = await own.post('/console/policy', { ...form, dailyLimit: '' });
    assert.equal(refused.status, 403);
    const still = await gw.admin('GET', '/admin/accounts/41/policy');
    assert.equal(still.json.DailyLimit, 100, 'an account cannot lift its own limit');
  });

  it('refuses a bad value naming the field, and keeps the policy as it was', async () => {
    await accountKey(gw, 42);
    await admin.get('/console/policy?account=42');
    const bad = await admin.post('/console/policy', { ...form, account: '42', dailyLimit: 'ten' });
    assert.equal(bad.status, 400);
    assert.match(bad.text, /DailyLimit must be a whole number/);
    const country = await admin.post('/console/policy', {
      ...form,
      account: '42',
      countries: 'XX',
    });
    assert.match(country.text, /Countries\.0/);
    const view = await gw.admin('GET', '/admin/accounts/42/policy');
    assert.equal(view.json.DailyLimit, null);
    for (const [costCount, reference, field] of [
      ['0', 'x', /CostCount must be a whole number from 1/],
      ['2.5', 'x', /CostCount must be a whole number from 1/],
      ['5', '   ', /Reference must be 1 to 200 characters/],
    ] as const) {
      const credit = await admin.post('/console/policy/credit', {
        account: '42',
        costCount,
        reference,
      });
      assert.equal(credit.status, 400);
      assert.match(credit.text, field);
    }
    const ledger = await gw.admin('GET', '/admin/accounts/42/credits');
    assert.deepEqual(ledger.json.Entries, [], 'a refused credit adds nothing');
  });
});
