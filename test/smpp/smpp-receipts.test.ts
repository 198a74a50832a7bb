import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseExposition, valueOf } from '../helpers/prometheus.js';
import { gatewayWithSmsc } from '../helpers/smpp.js';
import {
  approvedTemplate,
  cn,
  finalReceipts,
  receiptOf,
  registerSenderId,
  sendAll,
} from '../helpers/sending.js';

describe('SMS through SMPP to the SMSC simulator, receipts back', () => {
  let env: Awaited<ReturnType<typeof gatewayWithSmsc>>;
  let tpl: string;
  before(async () => {
    env = await gatewayWithSmsc();
    tpl = await approvedTemplate(env.gw, 'Hello {1}, your code is {2}');
    await registerSenderId(env.gw, 'WIREBIRD');
  });
  after(() => env.close());

  it('gives Success, Fail (0001), SubmitFail (0002) as the SMSC reports them', async () => {
    const session = await sendAll(env.gw, [
      {
        TemplateId: tpl,
        SenderId: 'WIREBIRD',
        Target: [10, 1, 2].map((n) => ({ Phone: cn(n), TemplateParams: ['Ann', '42'] })),
      },
    ]);
    const set = await finalReceipts(env.gw, session, 3);
    const ok = receiptOf(set, cn(10));
    assert.deepEqual(
      [ok.ReceiptResult, ok.ReceiptCode, ok.ReceiptDesc],
      ['Success', 'DELIVRD:000', 'delivered to the handset'],
    );
    const failed = receiptOf(set, cn(1));
    assert.deepEqual(
      [failed.ReceiptResult, failed.ReceiptCode, failed.ReceiptDesc],
      ['Fail', 'UNDELIV:001', 'undeliverable (network error 001)'],
    );
    const refused = receiptOf(set, cn(2));
    assert.deepEqual([refused.ReceiptResult, refused.ReceiptCode], ['SubmitFail', '0x0000000B']);
    assert.match(refused.ReceiptDesc, /^ESME_RINVDSTADR/);
    const sent = env.sim.submits.find((s) => s.destinationAddr === cn(10).slice(1));
    assert.equal(sent?.text, 'Hello Ann, your code is 42');
    assert.deepEqual([sent.sourceAddr, sent.sourceTon, sent.sourceNpi], ['WIREBIRD', 5, 0]);
    assert.equal(sent.registeredDelivery, 1);
  });

  it('keeps the message on the smpp route with the SMSC as its upstream, and counts reports so', async () => {
    const session = await sendAll(env.gw, [
      {
        TemplateId: tpl,
        SenderId: 'WIREBIRD',
        Target: [{ Phone: cn(11), TemplateParams: ['Bo', '7'] }],
      },
    ]);
    await finalReceipts(env.gw, session, 1);
    const view = await env.gw.store.sessionView(session, undefined, 10);
    assert.deepEqual(
      view?.messages.map((m) => [m.route, m.upstream]),
      [['smpp', 'sim']],
    );
    const res = await fetch(`${env.gw.url}/metrics`, {
      headers: { authorization: `Bearer ${env.gw.adminKey}` },
    });
    const delivered = { channel: 'smpp', upstream: 'sim', status: 'delivered' };
    const samples = parseExposition(await res.text());
    assert.ok(valueOf(samples, 'wirebird_reports_total', delivered) >= 2);
  });

  it('shows its bind on /metrics: bound, with the SMSC named', async () => {
    const res = await fetch(`${env.gw.url}/metrics`, {
      headers: { authorization: `Bearer ${env.gw.adminKey}` },
    });
    const samples = parseExposition(await res.text());
    const bind = { channel: 'smpp', upstream: 'sim', bind: 'trx-1' };
    assert.equal(valueOf(samples, 'wirebird_bind_state', { ...bind, state: 'bound' }), 1);
    assert.equal(valueOf(samples, 'wirebird_bind_state', { ...bind, state: 'down' }), 0);
  });
});
