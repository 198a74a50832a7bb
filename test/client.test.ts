import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import {
  RET_CODES,
  RETRYABLE_RET_CODES,
  WebhookVerificationError,
  WirebirdApiError,
  WirebirdClient,
  WirebirdTransportError,
  verifyWebhook,
} from '@wirebird/client';
import { Webhook } from 'standardwebhooks';
import { RETRYABLE_RET_CODES as SERVER_RETRYABLE, RetCode } from '../src/domain/errors.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { Receiver } from './helpers/receiver.js';

describe('the typed client (packages/client) against a gateway', () => {
  let gw: TestGateway;
  let client: WirebirdClient;
  before(async () => {
    gw = await startTestGateway({ simDelayMs: 0, webhooks: { allowPrivate: true } });
    client = new WirebirdClient({
      baseUrl: gw.url,
      apiKey: gw.key,
      accountId: 1,
      adminKey: gw.adminKey,
    });
  });
  after(async () => gw.close());

  const approved = async () => {
    const { TemplateId } = await client.createUSMSTemplate({
      Purpose: 2,
      TemplateName: 'client',
      Template: 'Hello {1}',
    });
    const review = await client.templateReview({ params: { id: TemplateId, verb: 'approve' } });
    assert.equal(review.Data.Status, 2);
    return TemplateId;
  };

  it('creates, approves and sends, with typed answers, then reads the receipt', async () => {
    const TemplateId = await approved();
    const sent = await client.sendBatchUSMSMessage({
      TaskContent: [{ TemplateId, Target: [{ Phone: '+8613800001001', TemplateParams: ['a'] }] }],
    });
    assert.equal(sent.RetCode, 0);
    assert.equal(sent.SuccessCount, 1);
    const receipts = await eventually(async () => {
      const r = await client.getUSMSSendReceipt({ SessionNoSet: [sent.SessionNo] });
      return r.Data[0]?.ReceiptSet.length === 1 ? r.Data[0].ReceiptSet : undefined;
    }, 'the receipt');
    assert.equal(receipts[0]?.ReceiptResult, 'Success');
  });

  it('throws a refusal as WirebirdApiError with its RetCode, name and Message', async () => {
    await assert.rejects(client.queryUSMSTemplate({ TemplateId: ['UTANOSUCH0000'] }), (err) => {
      assert.ok(err instanceof WirebirdApiError);
      assert.equal(err.retCode, 18010);
      assert.equal(err.code, 'NotFound');
      assert.equal(err.status, 200);
      assert.match(err.message, /^RetCode 18010: TemplateId UTANOSUCH0000 not found$/);
      return true;
    });
  });

  it('answers a send again under the same Idempotency-Key instead of sending twice', async () => {
    const TemplateId = await approved();
    const request = {
      TaskContent: [{ TemplateId, Target: [{ Phone: '+8613800001002', TemplateParams: ['b'] }] }],
    };
    const first = await client.sendBatchUSMSMessage(request, { idempotencyKey: 'client-once' });
    const again = await client.sendBatchUSMSMessage(request, { idempotencyKey: 'client-once' });
    assert.equal(again.SessionNo, first.SessionNo);
    const fresh = await client.sendBatchUSMSMessage(request);
    assert.notEqual(fresh.SessionNo, first.SessionNo);
  });

  it('calls the admin API: a new key that works for its own account only', async () => {
    const made = await client.apiKeyCreate({ params: { accountId: 7 } });
    assert.equal(made.AccountId, 7);
    const seven = new WirebirdClient({ baseUrl: gw.url, apiKey: made.Key, accountId: 7 });
    assert.deepEqual((await seven.listWebhookEndpoints({})).Data, []);
    await assert.rejects(
      seven.listWebhookEndpoints({ AccountId: 1 }),
      (err: unknown) => err instanceof WirebirdApiError && err.code === 'PermissionDenied',
    );
  });

  it('uploads a file for SendMessage, and refuses it to a key without the send scope', async () => {
    const bytes = new TextEncoder().encode('%PDF-1.4 a small document');
    const file = { bytes, fileName: 'terms.pdf', mimeType: 'application/pdf' };
    const stored = await client.uploadMedia(file);
    assert.match(stored.MediaId, /^wbm_/);
    assert.deepEqual([stored.FileName, stored.FileSize], ['terms.pdf', bytes.length]);
    const made = await client.apiKeyCreate({
      params: { accountId: 1 },
      body: { Scopes: ['read'] },
    });
    const reader = new WirebirdClient({ baseUrl: gw.url, apiKey: made.Key, accountId: 1 });
    await assert.rejects(reader.uploadMedia(file), (err: unknown) => {
      assert.ok(err instanceof WirebirdApiError);
      assert.deepEqual([err.retCode, err.status], [173, 403]);
      return true;
    });
  });

  it('verifies the events the gateway signs', async () => {
    const rx = await new Receiver().start();
    try {
      const made = await client.createWebhookEndpoint({ Url: rx.url });
      const { EventId } = await client.sendWebhookTestEvent({ EndpointId: made.EndpointId });
      const got = await eventually(async () => rx.got.find((r) => r.id === EventId), 'the event');
      const headers = {
        'webhook-id': got.id,
        'webhook-timestamp': got.timestamp,
        'webhook-signature': got.signature,
      };
      const event = verifyWebhook(got.body, headers, made.Secret);
      assert.equal(event.type, 'webhook.test');
      assert.throws(
        () => verifyWebhook(got.body, headers, 'whsec_' + 'A'.repeat(32)),
        WebhookVerificationError,
      );
    } finally {
      await rx.close();
    }
  });
});

describe('the typed client: its RetCodes are the gateway’s', () => {
  it('knows every RetCode and retries exactly the retryable ones', () => {
    assert.deepEqual(RET_CODES, RetCode);
    assert.deepEqual(
      RETRYABLE_RET_CODES,
      SERVER_RETRYABLE.map((n) => RetCode[n]),
    );
  });
});

/** A stand-in gateway on 127.0.0.1 that answers each request as the test says. */
async function fakeGateway(
  answer: (n: number, req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ url: string; seen: IncomingMessage[]; close(): Promise<void> }> {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    req.resume();
    req.on('end', () => answer(seen.length, req, res));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(() => r()));
    },
  };
}

const json = (res: ServerResponse, body: object, status = 200) =>
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

describe('the typed client: retries', () => {
  const clientOf = (url: string) =>
    new WirebirdClient({ baseUrl: url, apiKey: 'k', accountId: 1, retries: 2, backoffMs: 1 });
  const batch = { TaskContent: [{ TemplateId: 'UTA1', Target: [{ Phone: '+8613800000003' }] }] };
  const ok = { Action: 'SendBatchUSMSMessageResponse', RetCode: 0, Message: '', SessionNo: 's' };

  it('retries a retryable RetCode with backoff until it succeeds', async () => {
    const fake = await fakeGateway((n, _req, res) =>
      n < 3 ? json(res, { RetCode: 153, Message: 'slow down' }, 429) : json(res, ok),
    );
    try {
      const answer = await clientOf(fake.url).sendBatchUSMSMessage(batch);
      assert.equal(answer.SessionNo, 's');
      assert.equal(fake.seen.length, 3);
    } finally {
      await fake.close();
    }
  });

  it('sends a send again after a lost answer, under the same Idempotency-Key', async () => {
    const fake = await fakeGateway((n, req, res) =>
      n === 1 ? req.socket.destroy() : json(res, ok),
    );
    try {
      await clientOf(fake.url).sendBatchUSMSMessage(batch);
      const keys = fake.seen.map((r) => r.headers['idempotency-key']);
      assert.equal(keys.length, 2);
      assert.ok(keys[0] && keys[0] === keys[1], `keys ${String(keys)}`);
    } finally {
      await fake.close();
    }
  });

  it('does not repeat a create whose answer was lost, nor a refusal that will not change', async () => {
    const lost = await fakeGateway((_n, req) => req.socket.destroy());
    try {
      await assert.rejects(
        clientOf(lost.url).createUSMSTemplate({ Purpose: 1, TemplateName: 'x', Template: 'y' }),
        WirebirdTransportError,
      );
      assert.equal(lost.seen.length, 1);
    } finally {
      await lost.close();
    }
    const refused = await fakeGateway((_n, _req, res) =>
      json(res, {
        RetCode: 18003,
        Message: 'TaskContent[0].Target[0].Phone is not a valid phone number',
      }),
    );
    try {
      await assert.rejects(clientOf(refused.url).sendBatchUSMSMessage(batch), WirebirdApiError);
      assert.equal(refused.seen.length, 1);
    } finally {
      await refused.close();
    }
  });
});

describe('verifyWebhook against the standardwebhooks package', () => {
  const secret = `whsec_${Buffer.from('a secret of thirty-two bytes!!!!').toString('base64')}`;
  const other = `whsec_${Buffer.from('another secret of 32 bytes......').toString('base64')}`;
  const body = JSON.stringify({
    type: 'webhook.test',
    timestamp: new Date().toISOString(),
    data: {},
  });
  const signed = (payload: string, at = new Date(), key = secret) => {
    const signature = new Webhook(key).sign('evt_1', at, payload);
    return {
      'webhook-id': 'evt_1',
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    };
  };

  it('accepts what the package signs, with either secret during a rotation', () => {
    assert.equal(verifyWebhook(body, signed(body), secret).type, 'webhook.test');
    assert.equal(
      verifyWebhook(body, signed(body, new Date(), other), [secret, other]).type,
      'webhook.test',
    );
    const both = `${signed(body)['webhook-signature']} ${signed(body, new Date(), other)['webhook-signature']}`;
    assert.ok(verifyWebhook(body, { ...signed(body), 'webhook-signature': both }, other));
  });

  it('refuses a changed body, an old timestamp, another secret and a missing header', () => {
    const h = signed(body);
    assert.throws(() => verifyWebhook(`${body} `, h, secret), WebhookVerificationError);
    const old = new Date(Date.now() - 10 * 60_000);
    assert.throws(() => verifyWebhook(body, signed(body, old), secret), /too far from now/);
    assert.throws(() => verifyWebhook(body, h, other), /no webhook-signature matches/);
    const { 'webhook-id': _id, ...rest } = h;
    assert.throws(() => verifyWebhook(body, rest, secret), /webhook-id header is missing/);
  });
});
