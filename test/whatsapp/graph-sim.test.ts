import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { GraphSim } from '../../src/graph-sim/graph-sim.js';
import { eventually, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import {
  BUSINESS_PHONE,
  approvedTemplate,
  cn,
  finalReceipts,
  messageView,
  messageWhen,
  sentMessageId,
  type MessageView,
} from '../helpers/sending.js';
import { APP_SECRET, registerWhatsAppPhone } from '../helpers/whatsapp.js';

/**
 * The whole loop as a user runs it: gateway → graph-sim (the Graph API stand-in) → statuses
 * posted back to the gateway's webhook, signed by the simulator with the app secret.
 */
describe('WhatsApp through graph-sim: statuses come back through signed webhooks', () => {
  let sim: GraphSim;
  let gw: TestGateway;
  before(async () => {
    // The gateway's port is known only once it listens: the simulator learns it afterwards.
    sim = new GraphSim({ host: '127.0.0.1', port: 0, statusDelayMs: 5, appSecret: APP_SECRET });
    const simUrl = await sim.start();
    gw = await startTestGateway({
      whatsapp: { apiUrl: `${simUrl}/v24.0`, appSecret: APP_SECRET },
      dispatch: { pollMs: 10, maxAttempts: 2 },
    });
    sim.webhookUrl = `${gw.url}/webhooks/whatsapp`;
    await registerWhatsAppPhone(gw);
  });
  after(async () => {
    await gw.close();
    await sim.stop();
  });

  /** The contact writes first (through graph-sim), as Meta's window wants for a free-form reply. */
  async function contactWrites(from: string): Promise<void> {
    const res = await fetch(`${sim.url}/simulate/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from, to: BUSINESS_PHONE, text: 'hello' }),
    });
    assert.equal(((await res.json()) as { webhookStatus: number }).webhookStatus, 200);
  }

  it('an ordinary number goes sent, delivered, read', async () => {
    await contactWrites(cn(1234));
    const messageId = await sentMessageId(gw, { To: cn(1234) });
    await messageWhen(gw, messageId, 'read');
    // Each status is its own POST, so they may be stored in any order (as with Meta's): "read"
    // may land before "delivered", which the history still records when it comes.
    const statusesOf = (view: MessageView) =>
      view.History.map((e) => e.Status).filter((s) => s !== 'submitted');
    const view = await eventually(async () => {
      const v = await messageView(gw, messageId);
      return statusesOf(v).length >= 4 ? v : undefined;
    }, 'four statuses in the history');
    assert.equal(view.Status, 'read', 'a late "delivered" moved the status back');
    assert.deepEqual(statusesOf(view).sort(), ['accepted', 'delivered', 'read', 'sent']);
  });

  it('test number 0001 fails with 131026 through the webhook; 0002 is refused at submission', async () => {
    await contactWrites(cn(1));
    await contactWrites(cn(2));
    const failed = await messageWhen(gw, await sentMessageId(gw, { To: cn(1) }), 'failed');
    // "sent" may be stored after "failed" (each status is its own POST); the failure is kept.
    assert.equal(failed.History.find((e) => e.Status === 'failed')?.Code, '131026');
    const refused = await messageWhen(gw, await sentMessageId(gw, { To: cn(2) }), 'failed');
    assert.equal(refused.History.at(-1)?.Code, '131026');
    assert.equal((refused as unknown as { UpstreamId: string }).UpstreamId, '');
  });

  it('a signature made with another secret is refused by the gateway and counted by the simulator', async () => {
    await contactWrites(cn(1300));
    const refusedBefore = sim.stats.statusesRefused;
    sim.appSecret = 'not-the-app-secret';
    try {
      const messageId = await sentMessageId(gw, { To: cn(1300) });
      for (let i = 0; i < 500 && sim.stats.statusesRefused < refusedBefore + 3; i++) {
        await new Promise((r) => setTimeout(r, 10));
      }
      assert.equal(sim.stats.statusesRefused, refusedBefore + 3);
      assert.equal((await messageView(gw, messageId)).Status, 'accepted');
    } finally {
      sim.appSecret = APP_SECRET;
    }
  });

  it('fails a free-form message outside the window with 131047, as Meta does; a template goes', async () => {
    const closed = await messageWhen(gw, await sentMessageId(gw, { To: cn(1400) }), 'failed');
    const failure = closed.History.find((e) => e.Status === 'failed');
    assert.equal(failure?.Code, '131047');
    assert.match(failure.Desc, /more than 24 hours have passed/);
    const template = {
      Type: 'template',
      Content: JSON.stringify({
        name: 'hello',
        language: { code: 'en_US', policy: 'deterministic' },
      }),
    };
    await messageWhen(gw, await sentMessageId(gw, { To: cn(1400), ...template }), 'read');
  });

  it('a message failed by the window falls back to SMS, once, through the whole loop', async () => {
    const code = await approvedTemplate(gw, 'We could not reach you on WhatsApp: {1}');
    const fallback = { TemplateId: code, TemplateParams: ['call us'] };
    const id = await sentMessageId(gw, { To: cn(1500), Fallback: fallback });
    const { json } = await eventually(async () => {
      const got = await gw.api({ Action: 'GetMessage', AccountId: 1, MessageId: id });
      const data = got.json.Data as { Fallback?: { State: string } };
      return data.Fallback?.State === 'sent' ? got : undefined;
    }, 'the fallback to be sent');
    const data = json.Data as MessageView & { Fallback: { SessionNo: string; Phone: string } };
    assert.equal(data.Status, 'failed');
    assert.equal(data.History.find((e) => e.Status === 'failed')?.Code, '131047');
    const [receipt] = await finalReceipts(gw, data.Fallback.SessionNo, 1);
    assert.equal(receipt?.Phone, cn(1500));
    assert.equal(receipt.ReceiptResult, 'Success');
  });

  it('a person writes to the business phone: the simulator posts it signed, stored once', async () => {
    const res = await fetch(`${sim.url}/simulate/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ from: cn(1240), to: BUSINESS_PHONE, text: 'Where is my order?' }),
    });
    const posted = (await res.json()) as { wamid: string; webhookStatus: number };
    assert.equal(posted.webhookStatus, 200);
    const { json } = await gw.api({
      Action: 'ListInboundMessages',
      AccountId: 1,
      Channel: 'whatsapp',
    });
    const data = json.Data as { From: string; To: string; Text: string }[];
    // The other tests' contacts wrote too: this one's message is there, once.
    assert.deepEqual(
      data.filter((m) => m.From === cn(1240)).map((m) => [m.From, m.To, m.Text]),
      [[cn(1240), BUSINESS_PHONE, 'Where is my order?']],
    );
    const bad = await fetch(`${sim.url}/simulate/messages`, {
      method: 'POST',
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(bad.status, 400);
  });
});
