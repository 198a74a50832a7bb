import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { pino } from 'pino';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  approvedTemplate,
  cn,
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
});
