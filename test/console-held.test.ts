import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { consoleLogin, flat, type ConsoleClient } from './helpers/console-client.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  accountKey,
  approvedTemplate,
  cn,
  finalReceipts,
  registerBusinessPhone,
  sentMessageId,
} from './helpers/sending.js';

const HOUR_S = 3600;

/** The console's Scheduled page: held messages listed, filtered, and cancelled one by one. */
describe('console: scheduled messages', () => {
  let gw: TestGateway;
  let admin: ConsoleClient;
  let tpl: string;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0 });
    admin = await consoleLogin(gw.url, gw.adminKey);
    tpl = await approvedTemplate(gw, 'See you at {1}');
    await registerBusinessPhone(gw);
  });
  after(() => gw.close());

  const at = (hours: number) => Math.floor(Date.now() / 1000) + hours * HOUR_S;
  const schedule = async (phones: string[], sendAt: number) => {
    const Target = phones.map((Phone) => ({ Phone, TemplateParams: ['9:00'] }));
    const { json } = await gw.api({
      Action: 'SendBatchUSMSMessage',
      AccountId: 1,
      TaskContent: [{ TemplateId: tpl, Target }],
      SendAt: sendAt,
    });
    assert.equal(json.RetCode, 0, json.Message);
    return json.SessionNo as string;
  };
  const doneOf = (location: string | null | undefined) =>
    new URL(location ?? '', 'http://x').searchParams.get('done') ?? '';
  const rowsOf = (markup: string) => (flat(markup).match(/<tr>.*?<\/tr>/g) ?? []).slice(1);

  it('lists held messages soonest first, and filters by account, session and due time', async () => {
    const later = await schedule([cn(901)], at(5));
    const sooner = await schedule([cn(902), cn(903)], at(2));
    const id = await sentMessageId(gw, { To: cn(904), SendAt: at(3) });
    const rows = rowsOf((await admin.get('/console/held?account=1')).text);
    const order = rows.map((r) => [sooner, later, id].find((s) => r.includes(s)));
    assert.deepEqual(order, [sooner, sooner, id, later]);
    const one = rowsOf((await admin.get(`/console/held?account=1&session=${later}`)).text);
    assert.equal(one.length, 1);
    assert.ok(one[0]?.includes(cn(901)));
    const due = new Date((at(4) + 60) * 1000).toISOString().slice(0, 16);
    assert.equal(rowsOf((await admin.get(`/console/held?account=1&due=${due}`)).text).length, 3);
    const theirs = await consoleLogin(gw.url, await accountKey(gw, 2));
    const page = await theirs.get('/console/held?account=1');
    assert.equal(rowsOf(page.text).length, 0, 'an account sees only its own, whatever it asks');
    const bad = await admin.get('/console/held?due=tomorrow');
    assert.equal(bad.status, 400);
    assert.match(bad.text, /due/);
  });

  it('cancels one held message with its button: CANCELED, and never sent', async () => {
    const session = await schedule([cn(911), cn(912)], at(1));
    const theirs = await consoleLogin(gw.url, await accountKey(gw, 2));
    await theirs.get('/console/held');
    const form = { account: '1', id: session, kind: 'sms', phone: cn(911) };
    const refused = await theirs.post('/console/held/cancel', form);
    assert.match(doneOf(refused.location), /not held any more/);
    await admin.get('/console/held');
    const done = await admin.post('/console/held/cancel', form);
    assert.equal(doneOf(done.location), `Canceled: ${session} ${cn(911)}`);
    const [cancelled] = await finalReceipts(gw, session, 1);
    assert.deepEqual(
      [cancelled?.Phone, cancelled?.ReceiptResult, cancelled?.ReceiptCode, cancelled?.CostCount],
      [cn(911), 'Fail', 'CANCELED', 0],
    );
    const left = rowsOf((await admin.get(`/console/held?session=${session}`)).text);
    assert.equal(left.length, 1, 'the other number stays held');
    const id = await sentMessageId(gw, { To: cn(913), SendAt: at(1) });
    await admin.post('/console/held/cancel', { account: '1', id, kind: 'business', phone: '' });
    const view = await gw.api({ Action: 'GetMessage', AccountId: 1, MessageId: id });
    assert.equal((view.json.Data as { Status: string }).Status, 'failed');
    const audit = await gw.admin('GET', '/admin/audit?action=message.canceled');
    assert.ok((audit.json.DataSet as unknown[]).length >= 2, 'each cancel is in the audit log');
  });
});
