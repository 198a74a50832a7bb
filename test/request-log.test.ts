import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { parseExposition, valueOf } from './helpers/prometheus.js';
import {
  approvedTemplate,
  cn,
  fetchReceipts,
  finalReceipts,
  sendAll,
  sentMessageId,
  registerBusinessPhone,
} from './helpers/sending.js';

describe('the request log', () => {
  let gw: TestGateway;
  const lines: Record<string, unknown>[] = [];
  before(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n'))
          if (l) lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    gw = await startTestGateway({ simDelayMs: 0 }, pino({ level: 'info' }, sink));
  });
  after(() => gw.close());

  const requestLines = () => lines.filter((l) => l.msg === 'request' && l.url === '/api');

  it('writes one line per request with the ReqUuid, RequestId or SessionNo its answer gave', async () => {
    const tpl = await approvedTemplate(gw, 'Hi {1}');
    await registerBusinessPhone(gw);
    const session = await sendAll(gw, [
      { TemplateId: tpl, Target: [{ Phone: cn(71), TemplateParams: ['a'] }] },
    ]);
    const messageId = await sentMessageId(gw);
    const { json } = await gw.api({
      Action: 'SendBatchUSMSMessage',
      AccountId: 1,
      TaskContent: [{ TemplateId: tpl, Target: [{ Phone: 'nope' }] }],
    });
    const logged = requestLines();
    const batch = logged.find((l) => l.sessionNo === session);
    assert.ok(batch, 'the batch line carries its SessionNo');
    assert.deepEqual(
      [batch.action, batch.retCode, typeof batch.reqUuid],
      ['SendBatchUSMSMessage', 0, 'string'],
    );
    assert.ok(
      logged.some((l) => l.action === 'SendMessage' && typeof l.requestId === 'string'),
      messageId,
    );
    const refused = logged.find((l) => l.reqUuid === json.ReqUuid);
    assert.deepEqual([refused?.retCode, refused?.status], [18046, 200]);
    assert.ok(!JSON.stringify(lines).includes(gw.key), 'the API key is never logged');
  });

  it('logs and counts a receipt answer cut by a read failing midway as 18004', async () => {
    const tpl = await approvedTemplate(gw, 'Parcel {1}');
    const sessions = [
      await sendAll(gw, [{ TemplateId: tpl, Target: [{ Phone: cn(81), TemplateParams: ['a'] }] }]),
      await sendAll(gw, [{ TemplateId: tpl, Target: [{ Phone: cn(82), TemplateParams: ['b'] }] }]),
    ];
    for (const s of sessions) await finalReceipts(gw, s, 1);
    const counted = async () =>
      valueOf(
        parseExposition(
          await (
            await fetch(`${gw.url}/metrics`, {
              headers: { authorization: `Bearer ${gw.adminKey}` },
            })
          ).text(),
        ),
        'wirebird_requests_total',
        { action: 'GetUSMSSendReceipt', ret_code: '18004' },
      );
    const before = await counted();
    const store = gw.store as { sessionReport: TestGateway['store']['sessionReport'] };
    const original = store.sessionReport;
    let reads = 0;
    store.sessionReport = async (accountId, sessionNo, now) => {
      if (++reads > 1) throw new Error('the store went away');
      return original.call(gw.store, accountId, sessionNo, now);
    };
    try {
      const res = await fetchReceipts(gw, sessions);
      assert.equal(res.status, 200, 'the status line went out before the failing read');
      await assert.rejects(res.text(), /terminated/, 'the client never sees a whole answer');
    } finally {
      store.sessionReport = original;
    }
    const line = await eventually(
      async () => requestLines().find((l) => l.action === 'GetUSMSSendReceipt' && l.retCode !== 0),
      'the request line of the cut answer',
    );
    assert.deepEqual([line.retCode, line.refusal], [18004, 'answer cut']);
    assert.ok(
      lines.some((l) => l.msg === 'internal error while the answer was written; answer cut'),
      'the failure itself is logged',
    );
    assert.equal((await counted()) - before, 1, 'counted once, with its RetCode');
  });
});
