import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { runStoreCli } from './helpers/cli.js';
import { Esme, status } from './helpers/esme.js';
import { startTestGateway, THREADED, type TestGateway } from './helpers/gateway.js';
import { accountKey, approvedTemplate, cn } from './helpers/sending.js';
import { keyPair, postForm, signedForm } from './helpers/ucloud.js';

const US = '+14155550101';
const GB = '+447400123456';

/** An account of its own for each test: its key and an approved template. */
async function account(gw: TestGateway, accountId: number) {
  const key = await accountKey(gw, accountId);
  const templateId = await approvedTemplate(gw, 'Your code is {1}', { accountId, key });
  const send = (phones: string[], extra: Record<string, unknown> = {}) =>
    gw.api(
      {
        Action: 'SendBatchUSMSMessage',
        AccountId: accountId,
        TaskContent: [
          {
            TemplateId: templateId,
            Target: phones.map((Phone) => ({ Phone, TemplateParams: ['1234'] })),
          },
        ],
        ...extra,
      },
      { key },
    );
  const policy = (body?: unknown) =>
    gw.admin(body === undefined ? 'GET' : 'PUT', `/admin/accounts/${accountId}/policy`, body);
  return { key, templateId, send, policy };
}

const refusals = (json: Record<string, unknown>) =>
  (json.FailContent as { Target: { Phone: string; FailureDetails: string }[] }[]).flatMap((g) =>
    g.Target.map((t) => [t.Phone, t.FailureDetails]),
  );

describe('account policy', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({
      ...THREADED,
      smppServer: {
        listen: '127.0.0.1:0',
        esmes: [{ accountId: 31, systemId: 'esme31', password: 'pw' }],
      },
    });
  });
  after(() => gw.close());

  it('is set field by field, null removes a limit, and bad values are refused naming the field', async () => {
    const a = await account(gw, 21);
    const set = await a.policy({ Countries: ['us', 'GB', 'US'], DailyLimit: 10 });
    assert.equal(set.json.RetCode, 0, set.json.Message);
    assert.deepEqual(set.json.Countries, ['GB', 'US']);
    const next = await a.policy({ DailyLimit: null, RecipientHourlyLimit: 3 });
    assert.deepEqual(
      [next.json.Countries, next.json.DailyLimit, next.json.RecipientHourlyLimit],
      [['GB', 'US'], null, 3],
    );
    const bad: [unknown, string][] = [
      [{ Countries: ['US', 'XX'] }, 'Countries.1'],
      [{ DailyLimit: -1 }, 'DailyLimit'],
      [{ MaxPerSecond: 2.5 }, 'MaxPerSecond'],
      [{ RecipientHourlyLimit: 5000 }, 'RecipientHourlyLimit'],
      [{ Prepaid: 'yes' }, 'Prepaid'],
    ];
    for (const [body, field] of bad) {
      const { status: code, json } = await a.policy(body);
      assert.equal(json.RetCode, RetCode.InvalidParameter, JSON.stringify(body));
      assert.equal(code, 400);
      assert.match(json.Message, new RegExp(field.replace('.', '\\.')));
    }
    const none = await gw.admin('PUT', '/admin/accounts/999/policy', { DailyLimit: 1 });
    assert.equal(none.json.RetCode, RetCode.NotFound);
    assert.deepEqual((await a.policy()).json.RecipientHourlyLimit, 3, 'nothing bad was kept');
  });

  it('Countries: refused numbers are listed per rule; a request refused whole has its RetCode', async () => {
    const a = await account(gw, 22);
    await a.policy({ Countries: ['GB'] });
    const mixed = await a.send([GB, US]);
    assert.equal(mixed.json.RetCode, 0, mixed.json.Message);
    assert.equal(mixed.json.SuccessCount, 1);
    assert.deepEqual(refusals(mixed.json), [
      [US, `${US}: sending to US is not enabled for this account (Countries)`],
    ]);
    const whole = await a.send([US]);
    assert.equal(whole.json.RetCode, RetCode.CountryNotEnabled);
    assert.match(whole.json.Message, /sending to US is not enabled/);
    const usms = await gw.api(
      {
        Action: 'SendUSMSMessage',
        AccountId: 22,
        TemplateId: a.templateId,
        TemplateParams: ['1'],
        PhoneNumbers: [US],
      },
      { key: a.key },
    );
    assert.equal(usms.json.RetCode, RetCode.CountryNotEnabled);
  });

  it('DailyLimit and RecipientHourlyLimit refuse past the limit; GetAccountPolicy shows the use', async () => {
    const a = await account(gw, 23);
    await a.policy({ DailyLimit: 3, RecipientHourlyLimit: 2 });
    const first = await a.send([cn(1), cn(1), cn(1)]);
    assert.equal(first.json.SuccessCount, 2);
    assert.match(String(refusals(first.json)[0]?.[1]), /RecipientHourlyLimit 2 reached/);
    const again = await a.send([cn(1)]);
    assert.equal(again.json.RetCode, RetCode.RecipientLimitReached);
    const other = await a.send([cn(2), cn(3)]);
    assert.equal(other.json.SuccessCount, 1);
    assert.match(String(refusals(other.json)[0]?.[1]), /daily limit 3 reached \(DailyLimit\)/);
    const full = await a.send([cn(4)]);
    assert.equal(full.json.RetCode, RetCode.DailyLimitReached);
    const own = await gw.api({ Action: 'GetAccountPolicy', AccountId: 23 }, { key: a.key });
    assert.equal(own.json.RetCode, 0, own.json.Message);
    assert.deepEqual([own.json.DailyLimit, own.json.UsedToday], [3, 3]);
    const auth = { authorization: `Bearer ${gw.adminKey}` };
    const metrics = await (await fetch(`${gw.url}/metrics`, { headers: auth })).text();
    assert.match(metrics, /wirebird_policy_refusals_total\{rule="daily_limit",account="23"\} 2/);
    assert.match(
      metrics,
      /wirebird_policy_refusals_total\{rule="recipient_hourly_limit",account="23"\} 2/,
    );
  });

  it('Prepaid: credit added, debited at acceptance, never below zero, all in the ledger', async () => {
    const a = await account(gw, 24);
    await a.policy({ Prepaid: true });
    assert.equal((await a.send([cn(10)])).json.RetCode, RetCode.InsufficientCredit);
    const credit = await gw.admin('POST', '/admin/accounts/24/credits', {
      CostCount: 2,
      Reference: 'inv-1',
    });
    assert.equal(credit.status, 201, credit.json.Message);
    assert.equal(credit.json.Balance, 2);
    const sent = await a.send([cn(11), cn(12), cn(13)]);
    assert.equal(sent.json.SuccessCount, 2);
    assert.match(String(refusals(sent.json)[0]?.[1]), /balance too low \(Prepaid\)/);
    const ledger = await gw.admin('GET', '/admin/accounts/24/credits');
    assert.equal(ledger.json.Balance, 0);
    const entries = ledger.json.Entries as { Kind: string; CostCount: number }[];
    assert.deepEqual(
      entries.map((e) => [e.Kind, e.CostCount]),
      [
        ['debit', -2],
        ['credit', 2],
      ],
    );
    const bad = await gw.admin('POST', '/admin/accounts/24/credits', {
      CostCount: 0,
      Reference: 'x',
    });
    assert.equal(bad.json.RetCode, RetCode.InvalidParameter);
  });

  it('a credit is never added twice: one Reference, one Idempotency-Key', async () => {
    await account(gw, 26);
    const credits = '/admin/accounts/26/credits';
    const first = await gw.admin('POST', credits, { CostCount: 7, Reference: 'same-ref' });
    assert.equal(first.status, 201, first.json.Message);
    const again = await gw.admin('POST', credits, { CostCount: 7, Reference: 'same-ref' });
    assert.equal(again.status, 409);
    assert.equal(again.json.RetCode, RetCode.StateConflict);
    assert.match(
      again.json.Message,
      new RegExp(
        `"same-ref" was credited to account 26 already: ledger entry ${String(first.json.EntryId)}, 7 CostCount at .*"RepeatReference": true`,
      ),
    );
    const repeat = { CostCount: 7, Reference: 'same-ref', RepeatReference: true };
    const repeated = await gw.admin('POST', credits, repeat);
    assert.equal(repeated.json.Balance, 14);
    const keyed = (body: unknown, key: string) =>
      fetch(`${gw.url}${credits}`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${gw.adminKey}`,
          'content-type': 'application/json',
          'idempotency-key': key,
        },
        body: JSON.stringify(body),
      }).then(async (r) => ({
        status: r.status,
        json: (await r.json()) as Record<string, unknown>,
      }));
    const k1 = await keyed({ ...repeat, Reference: 'keyed' }, 'retry-1');
    const k2 = await keyed({ ...repeat, Reference: 'keyed' }, 'retry-1');
    assert.deepEqual([k1.status, k2.status], [201, 201]);
    assert.deepEqual(k2.json, k1.json, 'the retry is answered the first answer');
    assert.equal(k1.json.Balance, 21);
    const other = await keyed({ ...repeat, CostCount: 8 }, 'retry-1');
    assert.equal(other.status, 409, 'the key with another request');
    const bad = await keyed(repeat, 'has space');
    assert.match(String(bad.json.Message), /Idempotency-Key must be 1 to 255 visible ASCII/);
    const ledger = await gw.admin('GET', credits);
    assert.equal(ledger.json.Balance, 21);
    assert.equal((ledger.json.Entries as unknown[]).length, 3);
  });

  it('a policy body that is not an object is refused, and changes nothing', async () => {
    const a = await account(gw, 27);
    await a.policy({ DailyLimit: 5 });
    for (const body of [null, [], 3]) {
      const r = await gw.admin('PUT', '/admin/accounts/27/policy', body);
      assert.equal(r.status, 400, JSON.stringify(body));
      assert.equal(r.json.RetCode, RetCode.InvalidParameter);
      assert.match(r.json.Message, /must be an object/);
    }
    assert.equal((await a.policy()).json.DailyLimit, 5);
  });

  it('holds on the UCloud form and on the SMPP server with its own statuses', async () => {
    const a = await account(gw, 31);
    await a.policy({ Countries: ['GB'], DailyLimit: 1 });
    const pair = await keyPair(gw, 31);
    const params = {
      Action: 'SendUSMSMessage',
      TemplateId: a.templateId,
      TemplateParams: ['1234'],
      PhoneNumbers: [US],
    };
    const form = await postForm(gw, signedForm(params, pair));
    assert.equal(form.json.RetCode, RetCode.CountryNotEnabled, form.json.Message);
    const e = await Esme.connect(gw.smppAddress as string);
    assert.equal((await e.bind('esme31', 'pw')).command_status, 0);
    const us = await e.submit({ destination_addr: US.slice(1), short_message: 'hi' });
    assert.equal(us.command_status, status('ESME_RSUBMITFAIL'));
    const gb = await e.submit({ destination_addr: GB.slice(1), short_message: 'hi' });
    assert.equal(gb.command_status, 0);
    const over = await e.submit({ destination_addr: GB.slice(1), short_message: 'hi' });
    assert.equal(over.command_status, status('ESME_RTHROTTLED'));
    e.close();
  });

  it('the CLI shows and changes a policy and adds credit, with the same checks', async () => {
    await accountKey(gw, 25);
    const cli = (args: string[]) => runStoreCli(gw.dataDir, args, gw.storeEnv);
    const set = await cli(['accounts', 'policy', '-a', '25', '--countries', 'US,gb']);
    assert.equal(set.code, 0, set.stderr);
    assert.match(set.stdout, /Countries\s+GB,US/);
    const badCountry = await cli(['accounts', 'policy', '-a', '25', '--countries', 'ZZ']);
    assert.notEqual(badCountry.code, 0);
    assert.match(badCountry.stderr, /Countries\.0 "ZZ" is not an ISO 3166-1 alpha-2/);
    const badLimit = await cli(['accounts', 'policy', '-a', '25', '--daily-limit', '1.5']);
    assert.match(badLimit.stderr, /DailyLimit must be a whole number/);
    const credit = await cli(['accounts', 'credit', '-a', '25', '-n', '7', '-r', 'cash']);
    assert.equal(credit.code, 0, credit.stderr);
    const twice = await cli(['accounts', 'credit', '-a', '25', '-n', '7', '-r', 'cash']);
    assert.notEqual(twice.code, 0);
    assert.match(twice.stderr, /"cash" was credited to account 25 already/);
    const badCredit = await cli(['accounts', 'credit', '-a', '25', '-n', '1e3', '-r', 'x']);
    assert.notEqual(badCredit.code, 0);
    assert.match(badCredit.stderr, /CostCount must be a whole number from 1/);
    const shown = await cli(['accounts', 'policy', '-a', '25']);
    assert.match(shown.stdout, /Balance\s+7/);
    const view = await gw.admin('GET', '/admin/accounts/25/policy');
    assert.deepEqual([view.json.Countries, view.json.Balance], [['GB', 'US'], 7]);
    const ledger = await cli(['accounts', 'credits', '-a', '25']);
    assert.match(ledger.stdout, /credit\s+7\s+cash/);
  });
});
