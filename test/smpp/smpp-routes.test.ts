import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SmscSim } from '../../src/smsc-sim/smsc-sim.js';
import { eventually, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { bound } from '../helpers/smpp.js';
import { approvedTemplate, finalReceipts, sendAll } from '../helpers/sending.js';

const smsc = (name: string, port: number, extra: Record<string, unknown> = {}) => ({
  name,
  port,
  systemId: 'wirebird',
  password: 'secret',
  responseTimeoutS: 5,
  reconnectMaxS: 1,
  ...extra,
});

describe('SMS routes over several SMSCs', () => {
  const a = new SmscSim({ port: 0, receiptDelayMs: 0, record: true });
  const b = new SmscSim({ port: 0, receiptDelayMs: 0, record: true });
  let gw: TestGateway;
  let tpl: string;
  before(async () => {
    const [pa, pb] = [await a.start(), await b.start()];
    gw = await startTestGateway({
      smpp: {
        smscs: [smsc('a', pa), smsc('b', pb)],
        routes: [
          { prefix: '+86', smscs: ['a', 'b'] },
          { prefix: '+44', smscs: ['b'] },
        ],
      },
    });
    await bound(gw);
    tpl = await approvedTemplate(gw, 'Hi {1}');
  });
  after(async () => {
    await gw.close();
    await Promise.all([a.stop(), b.stop()]);
  });

  const send = async (phone: string) => {
    const session = await sendAll(gw, [
      { TemplateId: tpl, Target: [{ Phone: phone, TemplateParams: ['x'] }] },
    ]);
    const [r] = await finalReceipts(gw, session, 1);
    return r;
  };
  const sentTo = (sim: SmscSim, phone: string) =>
    sim.submits.filter((s) => s.destinationAddr === phone.slice(1)).length;

  it('sends each number to the SMSC of its longest matching prefix', async () => {
    assert.equal((await send('+8613800000100'))?.ReceiptResult, 'Success');
    assert.equal((await send('+447911123100'))?.ReceiptResult, 'Success');
    assert.deepEqual([sentTo(a, '+8613800000100'), sentTo(b, '+8613800000100')], [1, 0]);
    assert.deepEqual([sentTo(a, '+447911123100'), sentTo(b, '+447911123100')], [0, 1]);
  });

  it('refuses a number no route covers with SubmitFail NOROUTE', async () => {
    const r = await send('+12025550100');
    assert.deepEqual([r?.ReceiptResult, r?.ReceiptCode], ['SubmitFail', 'NOROUTE']);
  });

  it('fails over to the next SMSC of the route when the first is down', async () => {
    await a.stop();
    await eventually(async () => {
      const binds = gw.pipeline.channels.byName.get('smpp')?.status().binds ?? [];
      return binds.some((x) => x.upstream === 'a' && x.state !== 'bound') ? true : undefined;
    }, 'SMSC a seen down');
    assert.equal((await send('+8613800000101'))?.ReceiptResult, 'Success');
    assert.equal(sentTo(b, '+8613800000101'), 1);
    assert.equal(gw.pipeline.channels.byName.get('smpp')?.status().state, 'degraded');
  });
});

describe('an SMSC that refuses the bind', () => {
  it('keeps the messages queued (never lost) while it reports the bind down', async () => {
    const sim = new SmscSim({ port: 0, systemId: 'wirebird', password: 'right' });
    const port = await sim.start();
    const gw = await startTestGateway({
      smpp: {
        smscs: [smsc('a', port, { password: 'wrong' })],
        routes: [{ prefix: '', smscs: ['a'] }],
      },
    });
    try {
      const tpl = await approvedTemplate(gw, 'Hi {1}');
      await sendAll(gw, [
        { TemplateId: tpl, Target: [{ Phone: '+8613800000102', TemplateParams: ['x'] }] },
      ]);
      await eventually(
        async () => (gw.pipeline.dispatcher.counters.retried > 0 ? true : undefined),
        'a retry',
      );
      const status = gw.pipeline.channels.byName.get('smpp')?.status();
      assert.equal(status?.state, 'down');
      const states = await gw.store.countByState();
      assert.equal((states.queued ?? 0) + (states.submitting ?? 0), 1, 'still waiting to go');
      assert.equal(sim.stats.binds, 0);
    } finally {
      await gw.close();
      await sim.stop();
    }
  });
});
