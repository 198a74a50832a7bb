import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { Receiver } from './helpers/receiver.js';
import {
  accountKey,
  approvedTemplate,
  cn,
  createTemplate,
  finalReceipts,
  sendAll,
} from './helpers/sending.js';
import { review } from './helpers/templates.js';

interface DeliveryItem {
  EventId: string;
  EndpointId: string;
  Type: string;
  State: string;
  Attempts: number;
  LastStatusCode: number;
  LastError: string;
  NextAttemptTime: number;
}

/**
 * Events pushed to webhook endpoints, verified by the `standardwebhooks` package on a receiver
 * on 127.0.0.1: signing, payloads, filters, retries, 410, Retry-After, rotation, replay, and
 * one account never touching another's endpoints or deliveries.
 */
describe('webhook events (Standard Webhooks)', () => {
  let gw: TestGateway;
  let rx: Receiver;
  before(async () => {
    gw = await startTestGateway({
      simDelayMs: 0,
      webhooks: {
        allowPrivate: true,
        retrySchedule: '200ms,200ms,200ms',
        pollMs: 10,
        probeMs: 50,
      },
    });
    rx = await new Receiver().start();
  });
  after(async () => {
    await gw.close();
    await rx.close();
  });
  beforeEach(async () => {
    // Each test starts with no endpoint and a receiver that answers 200.
    for (const e of await gw.store.listEndpoints(undefined)) {
      await gw.store.deleteEndpoint(e.accountId, e.endpointId);
    }
    rx.got.length = 0;
    rx.respond = (_r, res) => void res.writeHead(200).end('ok');
  });

  const api = async (fields: Record<string, unknown>, key?: string, accountId = 1) => {
    const { json } = await gw.api({ AccountId: accountId, ...fields }, { key });
    return json;
  };
  const endpoint = async (fields: Record<string, unknown> = {}) => {
    const json = await api({ Action: 'CreateWebhookEndpoint', Url: rx.url, ...fields });
    assert.equal(json.RetCode, 0, json.Message);
    rx.secrets = [json.Secret as string];
    return json.EndpointId as string;
  };
  const deliveries = async (fields: Record<string, unknown> = {}) => {
    const json = await api({ Action: 'ListWebhookDeliveries', ...fields });
    assert.equal(json.RetCode, 0, json.Message);
    return json.Data as DeliveryItem[];
  };
  const settled = (eventId: string, state: string) =>
    eventually(async () => {
      const d = (await deliveries({ EventId: eventId }))[0];
      return d?.State === state ? d : undefined;
    }, `delivery of ${eventId} ${state}`);

  it('an SMS receipt reaches the receiver signed, with its payload and a stable id', async () => {
    const created = await api({
      Action: 'CreateWebhookEndpoint',
      Url: rx.url,
      Description: 'receipts',
    });
    assert.equal(created.RetCode, 0, created.Message);
    const secret = created.Secret as string;
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.ok(Buffer.from(secret.slice(6), 'base64').length >= 24);
    rx.secrets = [secret];
    const listed = await api({ Action: 'ListWebhookEndpoints' });
    assert.doesNotMatch(JSON.stringify(listed), /whsec_/, 'a listing never shows the secret');

    const tpl = await approvedTemplate(gw, 'Your code {1}');
    const session = await sendAll(gw, [
      { TemplateId: tpl, Target: [{ Phone: cn(701), TemplateParams: ['42'], UserId: 'u-1' }] },
    ]);
    const got = await eventually(
      async () => rx.ofType('message.receipt')[0],
      'a message.receipt event',
    );
    assert.equal(got.verified, true, 'standardwebhooks verifies the signature');
    assert.match(got.id, /^evt_\d+$/);
    assert.ok(Math.abs(Number(got.timestamp) - Date.now() / 1000) < 60);
    const body = JSON.parse(got.body) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), ['data', 'timestamp', 'type']);
    assert.equal(new Date(body.timestamp as string).toISOString(), body.timestamp);
    assert.equal(got.data.SchemaVersion, 1);
    assert.equal(got.data.SessionNo, session);
    assert.equal(got.data.Phone, cn(701));
    assert.equal(got.data.UserId, 'u-1');
    assert.equal(got.data.ReceiptResult, 'Success');
    assert.equal(got.data.CostCount, 1);
    assert.equal(got.data.Sequence, 1);
    const d = await settled(got.id, 'delivered');
    assert.equal(d.Attempts, 1);
    assert.equal(d.LastStatusCode, 200);
  });

  it('a reply and a template review are events; a filter keeps out the other types', async () => {
    const id = await endpoint({ EventTypes: ['message.inbound', 'template.reviewed'] });
    const tpl = await approvedTemplate(gw, 'Reply STOP {1}');
    const session = await sendAll(gw, [
      { TemplateId: tpl, Target: [{ Phone: cn(702), TemplateParams: ['x'] }] },
    ]);
    const reply = await gw.admin('POST', '/admin/simulator/inbound', {
      From: cn(702),
      To: '10690001',
      Text: 'hello back',
    });
    assert.equal(reply.status, 201, reply.json.Message);
    const inbound = await eventually(async () => rx.ofType('message.inbound')[0], 'inbound');
    assert.equal(inbound.verified, true);
    assert.equal(inbound.data.InboundId, reply.json.InboundId);
    assert.equal(inbound.data.Text, 'hello back');
    assert.equal(inbound.data.From, cn(702));
    const reviewed = await eventually(async () => rx.ofType('template.reviewed')[0], 'review');
    assert.equal(reviewed.data.TemplateId, tpl);
    assert.equal(reviewed.data.Status, 2);
    // The receipt of the SMS sent above was never subscribed to: once it is final, no delivery
    // of it was written for the endpoint (the outbox writes them with the receipt).
    await finalReceipts(gw, session, 1);
    const mine = { accountId: 1, endpointId: id, limit: 100 };
    const { deliveries } = await gw.store.listDeliveries(mine);
    assert.deepEqual(deliveries.map((d) => d.type).sort(), [
      'message.inbound',
      'template.reviewed',
    ]);
    assert.deepEqual(rx.ofType('message.receipt'), []);
  });

  it('a refusal is retried with the same webhook-id until it is taken', async () => {
    await endpoint();
    let calls = 0;
    rx.respond = (_r, res) => void res.writeHead(++calls < 3 ? 500 : 204).end('not now');
    const tpl = await createTemplate(gw, 'Retried {1}');
    await review(gw, tpl, 'approve');
    const first = await eventually(async () => rx.ofType('template.reviewed')[2], '3 attempts');
    const ids = rx.ofType('template.reviewed').map((r) => r.id);
    assert.deepEqual(ids, [first.id, first.id, first.id]);
    const d = await settled(first.id, 'delivered');
    assert.equal(d.Attempts, 3);
    const gaps = rx.got.slice(1).map((r, i) => r.at - (rx.got[i]?.at ?? 0));
    assert.ok(
      gaps.every((g) => g >= 150),
      `retries wait their schedule (gaps ${gaps.join(', ')})`,
    );
  });

  it('a schedule spent fails the delivery; Replay sends it again', async () => {
    await endpoint();
    rx.respond = (_r, res) => void res.writeHead(500).end('down');
    const tpl = await createTemplate(gw, 'Spent {1}');
    await review(gw, tpl, 'approve');
    const id = (await eventually(async () => rx.got[0], 'first attempt')).id;
    const d = await settled(id, 'failed');
    assert.equal(d.Attempts, 4, 'the first attempt and three retries');
    assert.equal(d.LastStatusCode, 500);
    rx.respond = (_r, res) => void res.writeHead(200).end();
    const since = Math.floor(Date.now() / 1000) - 60;
    const replay = await api({ Action: 'ReplayWebhookEvents', Since: since });
    assert.equal(replay.RetCode, 0, replay.Message);
    assert.equal(replay.Replayed, 1);
    await settled(id, 'delivered');
    assert.equal(rx.got.filter((r) => r.id === id).length, 5);
    const one = await api({ Action: 'ReplayWebhookEvents', EventId: id });
    assert.equal(one.Replayed, 1);
    await eventually(
      async () => (rx.got.filter((r) => r.id === id).length === 6 ? true : undefined),
      'replayed once more',
    );
  });

  it('410 Gone disables the endpoint; enabling it again resumes', async () => {
    const id = await endpoint();
    rx.respond = (_r, res) => void res.writeHead(410).end();
    const tpl = await createTemplate(gw, 'Gone {1}');
    await review(gw, tpl, 'approve');
    const got = await eventually(async () => rx.got[0], 'the 410 attempt');
    await settled(got.id, 'failed');
    const [e] = (await api({ Action: 'ListWebhookEndpoints' })).Data as Record<string, unknown>[];
    assert.equal(e?.EndpointId, id);
    assert.equal(e.Disabled, true);
    assert.match(e.DisabledReason as string, /410/);
    const upd = await api({ Action: 'UpdateWebhookEndpoint', EndpointId: id, Disabled: false });
    assert.equal((upd.Endpoint as Record<string, unknown>).Disabled, false);
  });

  it('Retry-After on 429 is waited for', async () => {
    await endpoint();
    let calls = 0;
    rx.respond = (_r, res) => {
      if (++calls === 1) res.writeHead(429, { 'retry-after': '1' }).end();
      else res.writeHead(200).end();
    };
    const tpl = await createTemplate(gw, 'Later {1}');
    await review(gw, tpl, 'approve');
    await eventually(async () => rx.got[1], 'the second attempt');
    const gap = (rx.got[1]?.at ?? 0) - (rx.got[0]?.at ?? 0);
    assert.ok(gap >= 950, `waited ${gap} ms for Retry-After: 1, not the 200 ms schedule`);
  });

  it('after a rotation both secrets sign until the grace ends', async () => {
    const id = await endpoint();
    const old = rx.secrets[0] as string;
    // A delivery just before: the worker has read the endpoints a moment ago.
    const before = await api({ Action: 'SendWebhookTestEvent', EndpointId: id });
    await eventually(async () => rx.got.find((g) => g.id === before.EventId), 'the first');
    const rotated = await api({ Action: 'RotateWebhookSecret', EndpointId: id });
    assert.equal(rotated.RetCode, 0, rotated.Message);
    const fresh = rotated.Secret as string;
    assert.notEqual(fresh, old);
    rx.secrets = [fresh];
    const test = await api({ Action: 'SendWebhookTestEvent', EndpointId: id });
    assert.equal(test.RetCode, 0, test.Message);
    const got = await eventually(async () => rx.got.find((g) => g.id === test.EventId), 'test');
    assert.equal(got.verified, true, 'the very next delivery verifies with the new secret');
    assert.equal(got.signature.split(' ').length, 2);
    for (const s of [fresh, old]) {
      rx.secrets = [s];
      // Counted before the replay is asked for: its delivery may land before the answer does.
      const n = rx.got.length + 1;
      const again = await api({ Action: 'ReplayWebhookEvents', EventId: got.id });
      assert.equal(again.Replayed, 1);
      const r = await eventually(async () => rx.got[n - 1], 'replay');
      assert.equal(r.verified, true, 'verifies with either secret during the grace');
    }
  });

  it('one account never sees or touches another’s endpoints or deliveries', async () => {
    const id = await endpoint();
    const test = await api({ Action: 'SendWebhookTestEvent', EndpointId: id });
    await settled(test.EventId as string, 'delivered');
    const key2 = await accountKey(gw, 2);
    const as2 = (fields: Record<string, unknown>) => api(fields, key2, 2);
    assert.deepEqual((await as2({ Action: 'ListWebhookEndpoints' })).Data, []);
    assert.deepEqual((await as2({ Action: 'ListWebhookDeliveries' })).Data, []);
    for (const action of [
      'UpdateWebhookEndpoint',
      'DeleteWebhookEndpoint',
      'RotateWebhookSecret',
      'SendWebhookTestEvent',
    ]) {
      const json = await as2({ Action: action, EndpointId: id, Description: 'mine now' });
      assert.equal(json.RetCode, RetCode.NotFound, `${action}: ${json.Message}`);
    }
    const replay = await as2({ Action: 'ReplayWebhookEvents', EventId: test.EventId });
    assert.equal(replay.RetCode, RetCode.NotFound);
    // Naming account 1's endpoint or event answers account 2 nothing of them.
    for (const filter of [{ EndpointId: id }, { EventId: test.EventId }]) {
      const listed = await as2({ Action: 'ListWebhookDeliveries', ...filter });
      assert.equal(listed.RetCode, 0, listed.Message);
      assert.deepEqual(listed.Data, [], JSON.stringify(filter));
    }
    for (const fields of [{ Since: 0 }, { EventId: test.EventId }]) {
      const other = await as2({ Action: 'ReplayWebhookEvents', EndpointId: id, ...fields });
      assert.equal(other.RetCode, RetCode.NotFound, JSON.stringify(fields));
      assert.equal(other.Message, `EndpointId ${id} not found`);
    }
    assert.equal((await gw.store.getEndpoint(1, id))?.description, '');
  });

  it('bad input is refused with the field named', async () => {
    const cases: [Record<string, unknown>, number, RegExp][] = [
      [{ Action: 'CreateWebhookEndpoint' }, RetCode.MissingParameter, /Url/],
      [
        { Action: 'CreateWebhookEndpoint', Url: 'ftp://x.example/' },
        RetCode.InvalidParameter,
        /Url must be an http or https URL/,
      ],
      [
        { Action: 'CreateWebhookEndpoint', Url: rx.url, EventTypes: ['message.nope'] },
        RetCode.InvalidParameter,
        /EventTypes has unknown types message\.nope/,
      ],
      [{ Action: 'ReplayWebhookEvents' }, RetCode.InvalidParameter, /EventId or Since is required/],
      [{ Action: 'ListWebhookDeliveries', Cursor: 'zzz' }, RetCode.InvalidParameter, /Cursor/],
      [{ Action: 'ListWebhookDeliveries', EventId: '12' }, RetCode.InvalidParameter, /EventId/],
    ];
    for (const [body, code, message] of cases) {
      const json = await api(body);
      assert.equal(json.RetCode, code, `${JSON.stringify(body)}: ${json.Message}`);
      assert.match(json.Message, message);
    }
  });
});
