import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { GraphSim } from '../../src/graph-sim/graph-sim.js';
import { RetCode } from '../../src/domain/errors.js';
import { eventually, startTestGateway, type TestGateway } from '../helpers/gateway.js';
import { consoleLogin } from '../helpers/console-client.js';
import { Receiver, type Received } from '../helpers/receiver.js';
import { BUSINESS_PHONE, accountKey, cn } from '../helpers/sending.js';
import {
  APP_SECRET,
  notification,
  postWebhook,
  registerWhatsAppPhone,
} from '../helpers/whatsapp.js';

interface MediaView {
  State: string;
  MediaId?: string;
  Url?: string;
  MimeType?: string;
  FileName?: string;
  FileSize?: number;
  Sha256?: string;
  Error?: string;
}

interface InboundItem {
  InboundId: string;
  Type: string;
  From: string;
  Content?: Record<string, unknown>;
  Media?: MediaView;
}

// A 1×1 PNG, as a phone would send a photo.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/**
 * The files people send to a business phone, end to end: graph-sim posts a message naming a
 * media id, the gateway fetches the file through the Graph API calls Meta documents (GET the id,
 * then the URL it answers, with the phone's token), stores it, and only then announces the
 * message with a URL on the gateway that the account's key reads.
 */
describe('WhatsApp inbound media: fetched into the media store, served by the gateway', () => {
  let sim: GraphSim;
  let gw: TestGateway;
  let rx: Receiver;

  before(async () => {
    sim = new GraphSim({ host: '127.0.0.1', port: 0, statusDelayMs: 5, appSecret: APP_SECRET });
    const simUrl = await sim.start();
    gw = await startTestGateway({
      whatsapp: { apiUrl: `${simUrl}/v24.0`, appSecret: APP_SECRET, timeoutMs: 2000 },
      webhooks: { allowPrivate: true, pollMs: 10 },
    });
    sim.webhookUrl = `${gw.url}/webhooks/whatsapp`;
    await registerWhatsAppPhone(gw);
    rx = await new Receiver().start();
    const created = await gw.api({
      Action: 'CreateWebhookEndpoint',
      AccountId: 1,
      Url: rx.url,
      EventTypes: ['message.inbound'],
    });
    assert.equal(created.json.RetCode, 0, created.json.Message);
    rx.secrets = [created.json.Secret as string];
  });
  after(async () => {
    await gw.close();
    await sim.stop();
    await rx.close();
  });

  const simulate = async (body: Record<string, unknown>) => {
    const res = await fetch(`${sim.url}/simulate/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ to: BUSINESS_PHONE, ...body }),
    });
    const answer = (await res.json()) as { wamid: string; webhookStatus: number };
    assert.equal(answer.webhookStatus, 200);
    return answer.wamid;
  };
  const eventFrom = (from: string) =>
    eventually(
      async () => rx.ofType('message.inbound').find((r) => r.data.From === from),
      `the event from ${from}`,
    );
  const listed = async (from: string) => {
    const { json } = await gw.api({ Action: 'ListInboundMessages', AccountId: 1, Phone: from });
    assert.equal(json.RetCode, 0, json.Message);
    return (json.Data as InboundItem[])[0];
  };
  const download = (url: string, key: string | undefined) =>
    fetch(url, key ? { headers: { authorization: `Bearer ${key}` } } : {});

  it('an image: the event comes once the file is stored, with a URL the account key reads', async () => {
    const lookups = sim.stats.mediaLookups;
    const from = cn(3101);
    await simulate({
      from,
      text: 'my receipt',
      media: { type: 'image', mimeType: 'image/png', base64: PNG.toString('base64') },
    });
    const event: Received = await eventFrom(from);
    assert.ok(event.verified, 'the event is signed with the endpoint secret');
    const media = event.data.Media as MediaView;
    assert.equal(media.State, 'stored');
    assert.match(media.MediaId ?? '', /^wbm_/);
    assert.equal(media.Url, `${gw.url}/media/${media.MediaId}`);
    assert.equal(media.MimeType, 'image/png');
    assert.equal(media.FileSize, PNG.length);
    assert.equal(media.Sha256, sha256(PNG));
    assert.equal(
      (event.data.Content as { image: { caption: string } }).image.caption,
      'my receipt',
    );
    assert.equal(sim.stats.mediaLookups, lookups + 1);

    const res = await download(media.Url, gw.key);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'image/png');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    assert.deepEqual(Buffer.from(await res.arrayBuffer()), PNG);
    assert.deepEqual((await listed(from))?.Media, media, 'ListInboundMessages answers the same');
  });

  it('the console shows the file in the conversation; only its account opens it', async () => {
    const from = cn(3105);
    await simulate({
      from,
      text: 'the <b>label</b>',
      media: { type: 'image', mimeType: 'image/png', base64: PNG.toString('base64') },
    });
    const media = (await eventFrom(from)).data.Media as MediaView;
    const own = await consoleLogin(gw.url, gw.key);
    const page = await own.get(`/console/inbox?phone=${encodeURIComponent(from)}`);
    const href = `/console/media/1/${media.MediaId}`;
    assert.ok(page.text.includes(`<a href="${href}">`), 'a link to the stored file');
    assert.ok(page.text.includes('the &lt;b&gt;label&lt;/b&gt;'), 'the caption, escaped');
    const file = await own.get(href);
    assert.equal(file.status, 200);
    assert.equal(file.headers.get('content-type'), 'image/png');
    const other = await consoleLogin(gw.url, await accountKey(gw, 3));
    assert.equal((await other.get(href)).status, 404);
  });

  it('another account never reads the file; no key is refused', async () => {
    const from = cn(3102);
    await simulate({
      from,
      media: { type: 'sticker', mimeType: 'image/webp', base64: PNG.toString('base64') },
    });
    const media = (await eventFrom(from)).data.Media as MediaView;
    const other = await download(media.Url as string, await accountKey(gw, 2));
    assert.equal(other.status, 404);
    assert.equal(((await other.json()) as { RetCode: number }).RetCode, RetCode.NotFound);
    assert.equal((await download(media.Url as string, undefined)).status, 401);
    assert.equal((await download(`${gw.url}/media/wbm_nope`, gw.key)).status, 404);
  });

  it('a lookup Graph fails with a 5xx is retried: pending until then, with the error noted', async () => {
    const from = cn(3103);
    await simulate({
      from,
      media: {
        type: 'document',
        mimeType: 'application/pdf',
        base64: Buffer.from('%PDF-1.4 statement').toString('base64'),
        filename: '../../etc/Statement "May".pdf',
        lookupFailures: 1,
      },
    });
    const pending = await eventually(async () => {
      const item = await listed(from);
      return item?.Media?.Error ? item : undefined;
    }, 'the first attempt to fail');
    assert.equal(pending.Media?.State, 'pending');
    assert.equal(rx.ofType('message.inbound').filter((r) => r.data.From === from).length, 0);
    const media = (await eventFrom(from)).data.Media as MediaView;
    assert.equal(media.State, 'stored');
    assert.equal(media.FileName, 'Statement May.pdf', 'no path, no quotes');
    const res = await download(media.Url as string, gw.key);
    assert.match(
      res.headers.get('content-disposition') ?? '',
      /^attachment; filename="Statement May\.pdf"/,
    );
    assert.equal(Buffer.from(await res.arrayBuffer()).toString(), '%PDF-1.4 statement');
  });

  it('a media id Graph does not know fails for good: the event says why, once', async () => {
    const from = cn(3104);
    const body = notification(
      {
        contacts: [{ profile: { name: 'Bo' }, wa_id: from.slice(1) }],
        messages: [
          {
            from: from.slice(1),
            id: 'wamid.NOFILE',
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: 'audio',
            audio: { id: '404404404', mime_type: 'audio/ogg' },
          },
        ],
      },
      BUSINESS_PHONE.slice(1),
    );
    assert.equal((await postWebhook(gw, body)).status, 200);
    const media = (await eventFrom(from)).data.Media as MediaView;
    assert.equal(media.State, 'failed');
    assert.match(media.Error ?? '', /^100: /);
    const scrape = await fetch(`${gw.url}/metrics`, {
      headers: { authorization: `Bearer ${gw.adminKey}` },
    });
    const metrics = await scrape.text();
    assert.match(metrics, /wirebird_inbound_media_fetches_total\{outcome="failed"\} 1/);
    assert.match(metrics, /wirebird_inbound_media_fetches_total\{outcome="retry"\} 1/);
  });
});
