import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { FakeGraph } from '../helpers/fake-graph.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { parseExposition, valueOf } from '../helpers/prometheus.js';
import { cn, messageView, messageWhen, sentMessageId } from '../helpers/sending.js';
import {
  VERIFY_TOKEN,
  postWebhook,
  sign,
  startWhatsAppGateway,
  statusNotification,
  wamidOf,
  useWhatsAppGateway,
} from '../helpers/whatsapp.js';

const T0 = 1_790_000_000;

describe('WhatsApp webhook: verification handshake', () => {
  let graph: FakeGraph;
  let gw: TestGateway;
  before(async () => {
    graph = await FakeGraph.start();
    gw = await startWhatsAppGateway(graph);
  });
  after(async () => {
    await gw.close();
    await graph.close();
  });

  const verify = (base: string, query: Record<string, string>) =>
    fetch(`${base}/webhooks/whatsapp?${new URLSearchParams(query).toString()}`);

  it('answers the challenge, as plain text, when the verify token matches', async () => {
    const res = await verify(gw.url, {
      'hub.mode': 'subscribe',
      'hub.verify_token': VERIFY_TOKEN,
      'hub.challenge': '1158201444',
    });
    assert.equal(res.status, 200);
    assert.equal(await res.text(), '1158201444');
  });

  it('refuses a wrong token, a wrong mode and a missing challenge', async () => {
    const wrong = await verify(gw.url, {
      'hub.mode': 'subscribe',
      'hub.verify_token': 'guess',
      'hub.challenge': '1',
    });
    assert.equal(wrong.status, 403);
    assert.doesNotMatch(await wrong.text(), /\b1\b/, 'the challenge is not echoed');
    const mode = await verify(gw.url, {
      'hub.mode': 'unsubscribe',
      'hub.verify_token': VERIFY_TOKEN,
      'hub.challenge': '1',
    });
    assert.equal(mode.status, 403);
    // A repeated parameter is no value at all: refused, never a 500.
    const twice = await fetch(
      `${gw.url}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.verify_token=x&hub.challenge=1`,
    );
    assert.equal(twice.status, 403);
    const twoChallenges = await fetch(
      `${gw.url}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=1&hub.challenge=2`,
    );
    assert.equal(twoChallenges.status, 400);
    const none = await verify(gw.url, {
      'hub.mode': 'subscribe',
      'hub.verify_token': VERIFY_TOKEN,
    });
    assert.equal(none.status, 400);
    assert.match(((await none.json()) as { Message: string }).Message, /^hub\.challenge/);
  });

  it('refuses every handshake when no verify token is configured', async () => {
    const bare = await startTestGateway();
    try {
      const res = await verify(bare.url, {
        'hub.mode': 'subscribe',
        'hub.verify_token': VERIFY_TOKEN,
        'hub.challenge': '1',
      });
      assert.equal(res.status, 403);
    } finally {
      await bare.close();
    }
  });
});

describe('WhatsApp webhook: signed status notifications', () => {
  let next = 800;
  const ctx = useWhatsAppGateway();

  /** A message sent through the fake Graph API; answers its MessageId and wamid. */
  async function submitted(): Promise<{ messageId: string; wamid: string }> {
    const messageId = await sentMessageId(ctx.gw, { To: cn(next++) });
    return { messageId, wamid: await wamidOf(ctx.gw, messageId) };
  }

  async function accepted(body: string): Promise<void> {
    const { status, json } = await postWebhook(ctx.gw, body);
    assert.equal(status, 200, JSON.stringify(json));
  }

  it('moves the message through sent, delivered and read, with a timestamped history', async () => {
    const { messageId, wamid } = await submitted();
    await accepted(statusNotification({ id: wamid, status: 'sent', timestamp: T0 }));
    assert.equal((await messageView(ctx.gw, messageId)).Status, 'sent');
    await accepted(
      statusNotification(
        { id: wamid, status: 'delivered', timestamp: T0 + 2 },
        { id: wamid, status: 'read', timestamp: T0 + 9 },
      ),
    );
    const view = await messageView(ctx.gw, messageId);
    assert.equal(view.Status, 'read');
    assert.deepEqual(
      view.History.filter((e) => !['accepted', 'submitted'].includes(e.Status)).map((e) => [
        e.Status,
        e.Time,
        e.Code,
      ]),
      [
        ['sent', T0, 'SENT'],
        ['delivered', T0 + 2, 'DELIVERED'],
        ['read', T0 + 9, 'READ'],
      ],
    );
  });

  it('a delivered after a read, and a replayed duplicate, are kept in the history but never move the status back', async () => {
    const { messageId, wamid } = await submitted();
    const read = statusNotification({ id: wamid, status: 'read', timestamp: T0 + 5 });
    await accepted(read);
    await accepted(statusNotification({ id: wamid, status: 'delivered', timestamp: T0 + 3 }));
    await accepted(read);
    const view = await messageView(ctx.gw, messageId);
    assert.equal(view.Status, 'read');
    assert.deepEqual(
      view.History.filter((e) => !['accepted', 'submitted'].includes(e.Status)).map(
        (e) => e.Status,
      ),
      ['read', 'delivered', 'read'],
    );
  });

  it('records a failed status with the error code and details Meta gives', async () => {
    const { messageId, wamid } = await submitted();
    await accepted(
      statusNotification({
        id: wamid,
        status: 'failed',
        timestamp: T0 + 1,
        errors: [
          {
            code: 131026,
            title: 'Message undeliverable',
            message: 'Message undeliverable',
            error_data: { details: 'The recipient is not a WhatsApp user' },
          },
        ],
      }),
    );
    const view = await messageWhen(ctx.gw, messageId, 'failed');
    const last = view.History.at(-1);
    assert.equal(last?.Code, '131026');
    assert.equal(last.Desc, 'Message undeliverable: The recipient is not a WhatsApp user');
    // A read that still arrives proves the delivery; a delivered does not undo the failure.
    await accepted(statusNotification({ id: wamid, status: 'delivered', timestamp: T0 + 2 }));
    assert.equal((await messageView(ctx.gw, messageId)).Status, 'failed');
  });

  it('hashes the raw body as received: escaped non-ASCII and slashes verify, re-serialised JSON would not', async () => {
    const { messageId, wamid } = await submitted();
    // Meta's bodies escape non-ASCII as \uXXXX and "/" as "\/": JSON.stringify(parse) differs.
    const raw = statusNotification({ id: wamid, status: 'delivered', timestamp: T0 })
      .replace('"messages"', '"messages","note":"caf\\u00e9 \\/ \\u4f60\\u597d"')
      .replace(/,"/, ', "');
    assert.notEqual(JSON.stringify(JSON.parse(raw)), raw);
    const { status } = await postWebhook(ctx.gw, Buffer.from(raw, 'utf8'));
    assert.equal(status, 200);
    assert.equal((await messageView(ctx.gw, messageId)).Status, 'delivered');
  });

  it('answers 401 and changes nothing for a bad signature, a missing one, or another secret', async () => {
    const { messageId, wamid } = await submitted();
    const before = await messageView(ctx.gw, messageId);
    const body = statusNotification({ id: wamid, status: 'read', timestamp: T0 });
    const failuresBefore = await signatureFailures();
    const tampered = body.replace('"read"', '"sent"');
    for (const [body2, signature] of [
      [tampered, sign(body)],
      [body, null],
      [body, sign(body, 'another-secret')],
      [body, 'sha1=' + sign(body).slice(7)],
      [body, 'sha256=zz'],
    ] as const) {
      const { status, json } = await postWebhook(ctx.gw, body2, signature);
      assert.equal(
        status,
        401,
        `signature ${signature} over ${body2 === body ? 'the body' : 'another body'}`,
      );
      assert.equal(json.RetCode, 170);
      assert.match(String(json.Message), /^X-Hub-Signature-256/);
    }
    assert.deepEqual(await messageView(ctx.gw, messageId), before);
    assert.equal(await signatureFailures(), failuresBefore + 5);
  });

  it('acknowledges notifications without statuses (inbound messages) and for unknown wamids', async () => {
    const inbound = JSON.stringify({
      object: 'whatsapp_business_account',
      entry: [
        {
          changes: [{ field: 'messages', value: { messages: [{ id: 'wamid.IN', type: 'text' }] } }],
        },
      ],
    });
    const { status, json } = await postWebhook(ctx.gw, inbound);
    assert.equal(status, 200);
    assert.equal(json.Statuses, 0);
    await accepted(statusNotification({ id: 'wamid.NOBODY', status: 'delivered', timestamp: T0 }));
  });

  it('refuses a signed body that is not JSON with a 400 naming the problem', async () => {
    const { status, json } = await postWebhook(ctx.gw, '{not json');
    assert.equal(status, 400);
    assert.match(String(json.Message), /not valid JSON/);
  });

  async function signatureFailures(): Promise<number> {
    const res = await fetch(`${ctx.gw.url}/metrics`, {
      headers: { authorization: `Bearer ${ctx.gw.adminKey}` },
    });
    const samples = parseExposition(await res.text());
    return valueOf(samples, 'wirebird_webhook_signature_failures_total', { channel: 'whatsapp' });
  }
});

describe('WhatsApp webhook without an app secret', () => {
  it('refuses every POST with 401', async () => {
    const gw = await startTestGateway();
    try {
      const body = statusNotification({ id: 'wamid.X', status: 'read', timestamp: T0 });
      const { status } = await postWebhook(gw, body, sign(body));
      assert.equal(status, 401);
    } finally {
      await gw.close();
    }
  });
});
