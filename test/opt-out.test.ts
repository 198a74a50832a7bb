import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { Receiver } from './helpers/receiver.js';
import {
  BUSINESS_PHONE,
  accountKey,
  approvedTemplate,
  cn,
  registerBusinessPhone,
} from './helpers/sending.js';
import { review } from './helpers/templates.js';

interface FailRow {
  Target: { Phone: string; FailureDetails: string }[];
}

/**
 * Opt-out end to end: keywords in replies (any width, case, spacing), the Actions, refusals per
 * number with RetCode 18022, the verification-code exemption, events, and account isolation.
 */
describe('opt-out', () => {
  let gw: TestGateway;
  let rx: Receiver;
  let tpl: string;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0, webhooks: { allowPrivate: true, pollMs: 10 } });
    rx = await new Receiver().start();
    tpl = await approvedTemplate(gw, 'Sale today {1}');
    const created = await api({
      Action: 'CreateWebhookEndpoint',
      Url: rx.url,
      EventTypes: ['contact.opted_out', 'contact.opted_in'],
    });
    rx.secrets = [created.Secret as string];
  });
  after(async () => {
    await gw.close();
    await rx.close();
  });

  async function api(fields: Record<string, unknown>, key?: string, accountId = 1) {
    const { json } = await gw.api({ AccountId: accountId, ...fields }, { key });
    return json;
  }
  const reply = async (from: string, text: string) => {
    const r = await gw.admin('POST', '/admin/simulator/inbound', {
      From: from,
      To: '10690001',
      Text: text,
    });
    assert.equal(r.status, 201, r.json.Message);
  };
  const send = (phones: string[], template = tpl, key?: string, accountId = 1) =>
    api(
      {
        Action: 'SendBatchUSMSMessage',
        TaskContent: [
          {
            TemplateId: template,
            Target: phones.map((Phone) => ({ Phone, TemplateParams: ['x'] })),
          },
        ],
      },
      key,
      accountId,
    );
  const optedOut = async (phone: string) => {
    const json = await api({ Action: 'QueryOptOut', Phone: phone });
    assert.equal(json.RetCode, 0, json.Message);
    return (json.Data as Record<string, unknown>[])[0];
  };

  it('a STOP reply, however written, opts the number out: refused per number with 18022', async () => {
    await reply(cn(801), '  ｓｔｏｐ! ');
    const row = await optedOut(cn(801));
    assert.deepEqual([row?.Phone, row?.Source, row?.Keyword], [cn(801), 'keyword', 'ｓｔｏｐ!']);
    const event = await eventually(
      async () => rx.ofType('contact.opted_out')[0],
      'opted_out event',
    );
    assert.equal(event.verified, true);
    assert.deepEqual([event.data.Phone, event.data.Source], [cn(801), 'keyword']);

    const json = await send([cn(801), cn(802)]);
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal(json.SuccessCount, 1);
    const failed = (json.FailContent as FailRow[])[0]?.Target[0];
    assert.equal(failed?.Phone, cn(801));
    assert.match(failed.FailureDetails, /opted out.*RetCode 18022/);
    const none = await send([cn(801)]);
    assert.equal(none.RetCode, RetCode.NothingAccepted);
    assert.match(none.Message, /opted out/);
  });

  it('SendMessage to a number that opted out answers 18022', async () => {
    await registerBusinessPhone(gw);
    await reply(cn(803), 'Unsubscribe');
    await optedOut(cn(803));
    const json = await api({
      Action: 'SendMessage',
      To: cn(803),
      BusinessPhone: BUSINESS_PHONE,
      Type: 'text',
      Content: { body: 'hi' },
    });
    assert.equal(json.RetCode, RetCode.OptedOut, json.Message);
    assert.match(json.Message, new RegExp(`Phone \\${cn(803)} opted out`));
  });

  it('START opts back in; a word that is no keyword changes nothing', async () => {
    await reply(cn(804), '退订');
    assert.ok(await optedOut(cn(804)));
    await reply(cn(804), 'stop sending me this please');
    await reply(cn(804), 'start');
    assert.equal(await optedOut(cn(804)), undefined);
    await eventually(
      async () => rx.ofType('contact.opted_in').find((r) => r.data.Phone === cn(804)),
      'opted_in event',
    );
    assert.equal((await send([cn(804)])).SuccessCount, 1);
  });

  it('the Actions add, list by cursor and remove; a bad number names its index', async () => {
    const phones = [cn(811), cn(812), cn(813)];
    const added = await api({ Action: 'CreateOptOut', Phones: [...phones, cn(811)] });
    assert.deepEqual([added.RetCode, added.Added, added.AlreadyOptedOut], [0, 3, 0]);
    const again = await api({ Action: 'CreateOptOut', Phones: [cn(811)] });
    assert.deepEqual([again.Added, again.AlreadyOptedOut], [0, 1]);
    const seen: string[] = [];
    let cursor = '';
    do {
      const page = await api({
        Action: 'QueryOptOut',
        Limit: 2,
        ...(cursor ? { Cursor: cursor } : {}),
      });
      seen.push(...(page.Data as { Phone: string }[]).map((o) => o.Phone));
      cursor = page.NextCursor as string;
    } while (cursor);
    assert.ok(phones.every((p) => seen.includes(p)));
    assert.deepEqual([...seen].sort(), seen, 'in phone order');
    const removed = await api({ Action: 'DeleteOptOut', Phones: [cn(812), cn(899)] });
    assert.deepEqual([removed.Removed, removed.NotOptedOut], [1, 1]);
    const bad = await api({ Action: 'CreateOptOut', Phones: [cn(814), 'not-a-number'] });
    assert.equal(bad.RetCode, RetCode.InvalidParameter);
    assert.match(bad.Message, /Phones\[1\]/);
    assert.equal(await optedOut(cn(814)), undefined, 'a refused request adds nothing');
  });

  it('verification codes may be exempted; keywords are the account’s own', async () => {
    const created = await api({
      Action: 'CreateUSMSTemplate',
      Purpose: 1,
      TemplateName: 'login code',
      Template: 'Your code is {1}',
    });
    const code = created.TemplateId as string;
    await review(gw, code, 'approve');
    await api({ Action: 'CreateOptOut', Phones: [cn(821)] });
    assert.equal(
      (await send([cn(821)], code)).RetCode,
      RetCode.NothingAccepted,
      'not exempt by default',
    );
    const set = await api({
      Action: 'UpdateOptOutSettings',
      ExemptVerificationCodes: true,
      OptOutKeywords: ['ALTO'],
    });
    assert.equal(set.RetCode, 0, set.Message);
    assert.equal((await send([cn(821)], code)).SuccessCount, 1);
    assert.equal(
      (await send([cn(821)])).RetCode,
      RetCode.NothingAccepted,
      'promotions still refused',
    );
    await reply(cn(822), 'STOP');
    assert.equal(await optedOut(cn(822)), undefined, 'STOP is no longer this account’s keyword');
    await reply(cn(822), 'alto');
    assert.ok(await optedOut(cn(822)));
    const clash = await api({ Action: 'UpdateOptOutSettings', OptInKeywords: ['Alto'] });
    assert.equal(clash.RetCode, RetCode.InvalidParameter);
    assert.match(clash.Message, /OptInKeywords has Alto, which is an opt-out keyword too/);
    const got = await api({ Action: 'GetOptOutSettings' });
    assert.deepEqual([got.OptOutKeywords, got.ExemptVerificationCodes], [['ALTO'], true]);
  });

  it('one account’s opt-outs are its own', async () => {
    await api({ Action: 'CreateOptOut', Phones: [cn(831)] });
    const key2 = await accountKey(gw, 2);
    assert.deepEqual((await api({ Action: 'QueryOptOut' }, key2, 2)).Data, []);
    const removed = await api({ Action: 'DeleteOptOut', Phones: [cn(831)] }, key2, 2);
    assert.equal(removed.Removed, 0);
    assert.ok(await optedOut(cn(831)), 'still opted out of account 1');
    const tpl2 = await approvedTemplate(gw, 'Other account {1}', { accountId: 2, key: key2 });
    assert.equal((await send([cn(831)], tpl2, key2, 2)).SuccessCount, 1);
  });
});
