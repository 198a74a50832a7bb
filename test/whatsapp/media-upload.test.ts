import assert from 'node:assert/strict';
import type { BusinessContent } from '../../src/domain/business-messages/content.js';
import { Writable } from 'node:stream';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { pino } from 'pino';
import { GraphFailure } from '../../src/channels/whatsapp/graph-errors.js';
import { UPLOAD_REUSE_MS, WhatsAppMedia } from '../../src/channels/whatsapp/media-upload.js';
import type { MediaFile } from '../../src/domain/media/media-file.js';
import type { Store } from '../../src/domain/ports.js';
import { mediaFile } from '../../src/store/contract/fixtures.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import { FakeGraph, formOf, graphError } from '../helpers/fake-graph.js';

const TOKEN = 'EAAG-secret-token-never-logged';
const CAT: BusinessContent = { type: 'image', image: { id: 'wbm_cat' } };
const SENDER = { accountId: 1, phoneNumberId: '1234567890', accessToken: TOKEN };
const START = 1_800_000_000_000;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

/** The test's file: account 1's cat.png, PNG bytes; `overrides` make others. */
const catFile = (overrides: Partial<MediaFile> = {}): MediaFile =>
  mediaFile({ mediaId: 'wbm_cat', accountId: 1, fileName: 'cat.png', bytes: PNG, ...overrides });

/** Asserts that `promise` rejects with a GraphFailure of this retryability and code. */
async function failsWith(promise: Promise<unknown>, retryable: boolean, code: string) {
  await assert.rejects(promise, (err: unknown) => {
    assert.ok(err instanceof GraphFailure, `expected a GraphFailure, got ${String(err)}`);
    assert.deepEqual([err.retryable, err.code], [retryable, code], err.desc);
    return true;
  });
}

describe('WhatsAppMedia.resolve', () => {
  let graph: FakeGraph;
  let store: Store;
  let now: number;
  let logged: string;
  let media: WhatsAppMedia;
  before(async () => {
    graph = await FakeGraph.start();
  });
  after(() => graph.close());
  beforeEach(async () => {
    graph.requests.length = 0;
    store = openSqliteStore({ path: ':memory:' });
    await store.insertMedia(catFile());
    now = START;
    logged = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        logged += chunk.toString();
        done();
      },
    });
    const options = { apiUrl: graph.url, timeoutMs: 2000 };
    media = new WhatsAppMedia(store, options, { now: () => now }, pino({ level: 'debug' }, sink));
  });
  afterEach(() => store.close());

  it('uploads the file to the phone number id /media as Graph takes it, then names it by its WhatsApp id', async () => {
    const content: BusinessContent = { type: 'image', image: { id: 'wbm_cat', caption: 'hi' } };
    const resolved = await media.resolve(content, SENDER);
    const [upload] = graph.mediaRequests();
    assert.ok(upload && graph.mediaRequests().length === 1);
    assert.equal(upload.method, 'POST');
    assert.equal(upload.path, '/1234567890/media');
    assert.equal(upload.headers.authorization, `Bearer ${TOKEN}`);
    assert.match(upload.headers['content-type'] ?? '', /^multipart\/form-data; boundary=/);
    const form = await formOf(upload);
    assert.deepEqual([...form.keys()], ['messaging_product', 'type', 'file']);
    assert.equal(form.get('messaging_product'), 'whatsapp');
    assert.equal(form.get('type'), 'image/png');
    const file = form.get('file') as File;
    assert.equal(file.name, 'cat.png');
    assert.ok(Buffer.from(await file.arrayBuffer()).equals(PNG), 'the stored bytes');
    const id = (resolved as { image: { id: string } }).image.id;
    assert.match(id, /^9\d+$/);
    assert.deepEqual(resolved, { type: 'image', image: { id, caption: 'hi' } });
    assert.deepEqual(
      content,
      { type: 'image', image: { id: 'wbm_cat', caption: 'hi' } },
      'the input is untouched',
    );
    assert.equal((await store.getMediaUpload(1, 'wbm_cat', '1234567890'))?.whatsAppMediaId, id);
  });

  it('uses the cached id: a second resolve uploads nothing', async () => {
    const first = await media.resolve(CAT, SENDER);
    now += UPLOAD_REUSE_MS - 1;
    const second = await media.resolve(CAT, SENDER);
    assert.deepEqual(second, first);
    assert.equal(graph.mediaRequests().length, 1);
  });

  it('uploads again for another phone number id', async () => {
    const first = await media.resolve(CAT, SENDER);
    const other = { ...SENDER, phoneNumberId: '5555555555' };
    const second = await media.resolve(CAT, other);
    assert.notDeepEqual(second, first);
    assert.deepEqual(
      graph.mediaRequests().map((r) => r.path),
      ['/1234567890/media', '/5555555555/media'],
    );
  });

  it('uploads again once the cached id is 29 days old, and caches the new one', async () => {
    const first = await media.resolve(CAT, SENDER);
    now += UPLOAD_REUSE_MS;
    const second = await media.resolve(CAT, SENDER);
    assert.notDeepEqual(second, first);
    assert.equal(graph.mediaRequests().length, 2);
    assert.equal((await store.getMediaUpload(1, 'wbm_cat', '1234567890'))?.uploadedAt, now);
  });

  it('resolves template header media, uploading a file named twice once', async () => {
    await store.insertMedia(
      catFile({ mediaId: 'wbm_doc', mimeType: 'application/pdf', fileName: 'a.pdf' }),
    );
    const header = (id: string) => ({
      type: 'header',
      parameters: [{ type: 'document', document: { id, filename: 'a.pdf' } }],
    });
    const template = {
      name: 'order_update',
      language: { code: 'en_US', policy: 'deterministic' },
      components: [
        header('wbm_doc'),
        { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
      ],
    };
    const stored = { type: 'template', template } as BusinessContent;
    const resolved = (
      (await media.resolve(stored, SENDER)) as unknown as { template: typeof template }
    ).template;
    const [upload] = graph.mediaRequests();
    assert.ok(upload && graph.mediaRequests().length === 1);
    assert.equal((await formOf(upload)).get('type'), 'application/pdf');
    const parameter = resolved.components[0]?.parameters[0] as { document: { id: string } };
    const id = parameter.document.id;
    assert.match(id, /^9\d+$/);
    assert.deepEqual(resolved, { ...template, components: [header(id), template.components[1]] });
  });

  it('leaves WhatsApp ids, links and text alone, asking Graph nothing', async () => {
    const contents: BusinessContent[] = [
      { type: 'image', image: { id: '1234567890123' } },
      { type: 'image', image: { link: 'https://example.com/a.png' } },
      { type: 'text', text: { body: 'hi' } },
    ];
    for (const content of contents) assert.deepEqual(await media.resolve(content, SENDER), content);
    assert.equal(graph.requests.length, 0);
  });

  it('uploads a file once while many messages resolve it at the same time', async () => {
    const all = await Promise.all(Array.from({ length: 5 }, () => media.resolve(CAT, SENDER)));
    assert.equal(graph.mediaRequests().length, 1);
    assert.equal(new Set(all.map((c) => JSON.stringify(c))).size, 1);
  });

  describe('failures', () => {
    it('a 500 is a retryable GraphFailure, and nothing is cached', async () => {
      graph.answerNext('/media', graphError(500, 2, 'Service temporarily unavailable'));
      await failsWith(media.resolve(CAT, SENDER), true, '2');
      assert.equal(await store.getMediaUpload(1, 'wbm_cat', '1234567890'), undefined);
      await media.resolve(CAT, SENDER);
      assert.equal(graph.mediaRequests().length, 2, 'the next message uploads again');
    });

    it('a 400 with code 100 is permanent', async () => {
      graph.answerNext(
        '/media',
        graphError(400, 100, 'Invalid parameter', 'Param file is invalid'),
      );
      await failsWith(media.resolve(CAT, SENDER), false, '100');
    });

    it('a 429 is retryable after the Retry-After it names', async () => {
      graph.answerNext('/media', {
        ...graphError(429, 4, 'Too many calls'),
        headers: { 'retry-after': '7' },
      });
      const failure = await media.resolve(CAT, SENDER).catch((e: unknown) => e);
      assert.ok(failure instanceof GraphFailure && failure.retryable);
      assert.equal(failure.retryAfterMs, 7000);
    });

    it('a success without an id is retryable', async () => {
      graph.answerNext('/media', { status: 200, body: { ok: true } });
      await failsWith(media.resolve(CAT, SENDER), true, 'NOID');
    });

    it('no answer in time is a retryable TIMEOUT', async () => {
      const quick = new WhatsAppMedia(
        store,
        { apiUrl: graph.url, timeoutMs: 100 },
        { now: () => now },
        pino({ level: 'silent' }),
      );
      graph.answerNext('/media', { status: 200, body: { id: '1' }, delayMs: 5000 });
      await failsWith(quick.resolve(CAT, SENDER), true, 'TIMEOUT');
    });

    it('a Graph API that cannot be reached is a retryable NETWORK failure', async () => {
      const gone = new WhatsAppMedia(
        store,
        { apiUrl: 'http://127.0.0.1:9/v24.0', timeoutMs: 2000 },
        { now: () => now },
        pino({ level: 'silent' }),
      );
      await failsWith(gone.resolve(CAT, SENDER), true, 'NETWORK');
    });

    it('a media id no longer stored (or another account’s) is permanent, and Graph is not asked', async () => {
      await failsWith(
        media.resolve({ type: 'image', image: { id: 'wbm_gone' } }, SENDER),
        false,
        'MEDIA_NOT_FOUND',
      );
      const stranger = { ...SENDER, accountId: 2 };
      await failsWith(media.resolve(CAT, stranger), false, 'MEDIA_NOT_FOUND');
      assert.equal(graph.requests.length, 0);
    });
  });

  it('logs the upload but never the access token', async () => {
    graph.answerNext('/media', graphError(401, 190, 'Error validating access token'));
    await media.resolve(CAT, SENDER).catch(() => undefined);
    await media.resolve(CAT, SENDER);
    assert.match(logged, /media uploaded to WhatsApp/);
    assert.ok(!logged.includes(TOKEN), 'the token is not in the log');
    assert.ok(!logged.includes('secret'), 'nor any part of it');
  });
});
