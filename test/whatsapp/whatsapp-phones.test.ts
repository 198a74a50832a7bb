import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger.js';
import { FakeGraph, graphError } from '../helpers/fake-graph.js';
import type { TestGateway } from '../helpers/gateway.js';
import { BUSINESS_PHONE, cn, messageWhen, sendMessage, sentMessageId } from '../helpers/sending.js';
import {
  ACCESS_TOKEN,
  APP_SECRET,
  PHONE_NUMBER_ID,
  VERIFY_TOKEN,
  postWebhook,
  registerWhatsAppPhone,
  requestsTo,
  startWhatsAppGateway,
  statusNotification,
  wamidOf,
} from '../helpers/whatsapp.js';

describe('WhatsApp business phones: registration', () => {
  let graph: FakeGraph;
  let gw: TestGateway;
  const log: string[] = [];
  before(async () => {
    graph = await FakeGraph.start();
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        log.push(chunk.toString('utf8'));
        done();
      },
    });
    gw = await startWhatsAppGateway(graph, {}, createLogger('debug', sink));
  });
  after(async () => {
    await gw.close();
    await graph.close();
  });

  const register = (fields: Record<string, unknown>, accountId = 1) =>
    gw.admin('POST', `/admin/accounts/${accountId}/business-phones`, {
      BusinessPhone: BUSINESS_PHONE,
      Channel: 'whatsapp',
      PhoneNumberId: PHONE_NUMBER_ID,
      AccessToken: ACCESS_TOKEN,
      ...fields,
    });

  it('answers the phone, channel, phone number id and window guard, never the access token', async () => {
    // Left out, WindowGuard is WhatsApp's default: on.
    const json = await registerWhatsAppPhone(gw, { WindowGuard: undefined });
    assert.deepEqual(json, {
      RetCode: 0,
      Message: '',
      AccountId: 1,
      BusinessPhone: BUSINESS_PHONE,
      Channel: 'whatsapp',
      PhoneNumberId: PHONE_NUMBER_ID,
      WindowGuard: true,
    });
    await registerWhatsAppPhone(gw);
    assert.doesNotMatch(JSON.stringify(json), new RegExp(ACCESS_TOKEN));
  });

  for (const [fields, field] of [
    [{ PhoneNumberId: undefined }, 'PhoneNumberId'],
    [{ PhoneNumberId: 'abc' }, 'PhoneNumberId'],
    [{ AccessToken: undefined }, 'AccessToken'],
    [{ AccessToken: 'has spaces in it' }, 'AccessToken'],
    [{ Channel: 'telegram' }, 'Channel'],
    [{ Channel: 'simulator' }, 'PhoneNumberId'],
    [{ WindowGuard: 'no' }, 'WindowGuard'],
  ] as const) {
    const shown = Object.entries(fields).map(([k, v]) => `${k}=${String(v)}`);
    it(`refuses ${shown.join(' ')} with a 400 naming ${field}`, async () => {
      const { status, json } = await register(fields);
      assert.equal(status, 400);
      assert.notEqual(json.RetCode, 0);
      assert.ok(json.Message.startsWith(field), json.Message);
    });
  }

  it('takes a new token on re-registration, and the next message uses it', async () => {
    await registerWhatsAppPhone(gw, { AccessToken: 'EAArotated-token' });
    // Tokens are cached for a few seconds per node: wait for the rotation to show on the wire.
    let to = '';
    for (let i = 0; ; i++) {
      to = cn(900 + i);
      await wamidOf(gw, await sentMessageId(gw, { To: to }));
      const [request] = requestsTo(graph, to);
      if (request?.headers.authorization === 'Bearer EAArotated-token') break;
      assert.ok(i < 40, 'the rotated token was never used');
      await new Promise((r) => setTimeout(r, 250));
    }
    await registerWhatsAppPhone(gw);
  });

  it('keeps the access token, app secret and verify token out of the logs', async () => {
    graph.answerNext('/messages', graphError(401, 190, 'Error validating access token'));
    const failed = await sentMessageId(gw, { To: cn(990) });
    await messageWhen(gw, failed, 'failed');
    const body = statusNotification({ id: 'wamid.LOGS', status: 'read', timestamp: 1 });
    await postWebhook(gw, body);
    await postWebhook(gw, body, 'sha256=' + '0'.repeat(64));
    await fetch(
      `${gw.url}/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${VERIFY_TOKEN}&hub.challenge=7`,
    );
    await fetch(`${gw.url}/webhooks/whatsapp?hub%2Everify_token=${VERIFY_TOKEN}`);
    const text = log.join('');
    assert.match(text, /Graph API refused a message/, 'the logs were captured');
    assert.match(text, /"url":"\/webhooks\/whatsapp\?\[query not logged\]"/);
    for (const secret of [ACCESS_TOKEN, 'EAArotated-token', APP_SECRET, VERIFY_TOKEN]) {
      assert.equal(text.includes(secret), false, `${secret} appears in the logs`);
    }
  });
});

describe('WhatsApp business phones: declared in the config file', () => {
  let graph: FakeGraph;
  let gw: TestGateway;
  before(async () => {
    graph = await FakeGraph.start();
    gw = await startWhatsAppGateway(graph, {
      phones: [
        {
          accountId: 1,
          businessPhone: '+8613900000077',
          phoneNumberId: '555000111',
          accessToken: 'EAAfrom-config-file',
          // Contacts never write here: the free-form sends below pass only with the guard off.
          windowGuard: false,
        },
      ],
    });
  });
  after(async () => {
    await gw.close();
    await graph.close();
  });

  it('is registered at start and sends through its phone number id with its token', async () => {
    const to = cn(950);
    const json = await sendMessage(gw, { To: to, BusinessPhone: '+8613900000077' });
    assert.equal(json.RetCode, 0, json.Message);
    await wamidOf(gw, (json.Data as { MessageId: string }).MessageId);
    const [request] = requestsTo(graph, to);
    assert.equal(request?.path, '/555000111/messages');
    assert.equal(request.headers.authorization, 'Bearer EAAfrom-config-file');
  });

  it('is private to its account: another account cannot send from it', async () => {
    const other = await gw.admin('POST', '/admin/accounts/2/keys');
    const json = await sendMessage(
      gw,
      { AccountId: 2, BusinessPhone: '+8613900000077' },
      { accountId: 2, key: other.json.Key as string },
    );
    assert.notEqual(json.RetCode, 0);
    assert.match(json.Message, /^BusinessPhone/);
  });
});
