import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { parseExposition, valueOf, type Sample } from './helpers/prometheus.js';
import { approvedTemplate, cn, finalReceipts, numbers, sendAll } from './helpers/sending.js';

describe('GET /metrics', () => {
  let gw: TestGateway;
  let tpl: string;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0 });
    tpl = await approvedTemplate(gw, 'Your code is {1}');
  });
  after(() => gw.close());

  async function scrape(): Promise<Sample[]> {
    const res = await fetch(`${gw.url}/metrics`, {
      headers: { authorization: `Bearer ${gw.adminKey}` },
    });
    assert.equal(res.status, 200);
    assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    return parseExposition(await res.text());
  }

  it('takes the admin key, not an account key', async () => {
    for (const key of [undefined, gw.key]) {
      const res = await fetch(`${gw.url}/metrics`, {
        headers: key ? { authorization: `Bearer ${key}` } : {},
      });
      assert.equal(res.status, 401);
      assert.equal(((await res.json()) as { RetCode: number }).RetCode, 170);
    }
  });

  it('counts requests, accepted, submitted and final messages as a batch goes through', async () => {
    const before = await scrape();
    const sim = { channel: 'simulator' };
    const session = await sendAll(gw, [
      {
        TemplateId: tpl,
        Target: [cn(1), cn(2), ...numbers(3)].map((Phone) => ({ Phone, TemplateParams: ['1'] })),
      },
    ]);
    await finalReceipts(gw, session, 5);
    await gw.api({ Action: 'NoSuchAction', AccountId: 1 });
    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);

    assert.equal(
      delta('wirebird_requests_total', { action: 'SendBatchUSMSMessage', ret_code: '0' }),
      1,
    );
    assert.equal(delta('wirebird_requests_total', { action: 'unknown', ret_code: '161' }), 1);
    assert.equal(delta('wirebird_messages_accepted_total', { kind: 'sms', ...sim }), 5);
    // 0002 is refused at submission; the others are submitted.
    assert.equal(delta('wirebird_messages_submitted_total', sim), 4);
    assert.equal(delta('wirebird_messages_final_total', { ...sim, result: 'SubmitFail' }), 1);
    assert.equal(delta('wirebird_messages_final_total', { ...sim, result: 'Fail' }), 1);
    assert.equal(delta('wirebird_messages_final_total', { ...sim, result: 'Success' }), 3);
    assert.equal(delta('wirebird_reports_total', { ...sim, upstream: '', status: 'delivered' }), 3);
    assert.ok(delta('wirebird_submit_duration_seconds_count', sim) >= 1);
    assert.equal(valueOf(after, 'wirebird_channel_state', { ...sim, state: 'up' }), 1);
    assert.equal(valueOf(after, 'wirebird_channel_state', { ...sim, state: 'down' }), 0);
    assert.equal(valueOf(after, 'wirebird_queue_depth'), 0);
    assert.equal(valueOf(after, 'wirebird_queue_oldest_due_age_seconds'), 0);
    assert.ok(after.some((s) => s.name === 'wirebird_process_resident_memory_bytes'));
  });

  it('counts inbound messages by channel, routed or not', async () => {
    const before = await scrape();
    const reply = (To: string) =>
      gw.admin('POST', '/admin/simulator/inbound', { From: cn(3), To, Text: 'hi' });
    await reply('10690001');
    await reply('10690001');
    await reply('10699999');
    const after = await scrape();
    const delta = (labels: Record<string, string>) =>
      valueOf(after, 'wirebird_inbound_messages_total', labels) -
      valueOf(before, 'wirebird_inbound_messages_total', labels);
    assert.equal(delta({ channel: 'sms', routed: 'yes' }), 2);
    assert.equal(delta({ channel: 'sms', routed: 'no' }), 1);
  });

  it('shows the queue and the age of its oldest due message while the dispatcher is stopped', async () => {
    await gw.pipeline.dispatcher.stop();
    await sendAll(gw, [
      {
        TemplateId: tpl,
        Target: numbers(7, 100).map((Phone) => ({ Phone, TemplateParams: ['2'] })),
      },
    ]);
    const samples = await eventually(async () => {
      const s = await scrape();
      return valueOf(s, 'wirebird_queue_oldest_due_age_seconds') > 0 ? s : undefined;
    }, 'an oldest due age above zero');
    assert.equal(valueOf(samples, 'wirebird_queue_depth'), 7);
    gw.pipeline.dispatcher.start();
    const drained = await eventually(async () => {
      const s = await scrape();
      return valueOf(s, 'wirebird_queue_depth') === 0 ? s : undefined;
    }, 'the queue to drain');
    assert.equal(valueOf(drained, 'wirebird_queue_oldest_due_age_seconds'), 0);
  });
});
