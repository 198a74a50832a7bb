import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, type Answer, type TestGateway } from './helpers/gateway.js';
import { fileBytes, mediaForm, postMedia, uploadMedia } from './helpers/media.js';
import { accountKey } from './helpers/sending.js';

const { MalformedRequest, MissingParameter, InvalidParameter, LimitExceeded, Unauthenticated } =
  RetCode;

/** Asserts an answer in the house envelope, with this status and RetCode, naming `field`. */
function refusedWith(answer: Answer, status: number, retCode: number, field: string): void {
  const { json } = answer;
  assert.equal(json.RetCode, retCode, json.Message);
  assert.equal(answer.status, status, json.Message);
  assert.ok(json.Message.startsWith(field), `"${json.Message}" should name ${field}`);
  assert.equal(json.MediaId, undefined);
  assert.doesNotMatch(JSON.stringify(json), /\bat .*\.js:\d+/, 'no stack trace');
}

describe('POST /media', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw.close());

  describe('stores a file of each kind and answers its id', () => {
    const kinds = [
      ['image', 'image/jpeg', 'photo.jpg'],
      ['image', 'image/png', 'photo.png'],
      ['video', 'video/mp4', 'clip.mp4'],
      ['video', 'video/3gpp', 'clip.3gp'],
      ['audio', 'audio/ogg', 'voice.ogg'],
      ['audio', 'audio/mpeg', 'song.mp3'],
      ['document', 'application/pdf', 'invoice.pdf'],
      [
        'document',
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        'letter.docx',
      ],
      ['sticker', 'image/webp', 'sticker.webp'],
    ] as const;
    for (const [kind, contentType, filename] of kinds) {
      it(`${kind}: ${contentType}`, async () => {
        const bytes = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) % 256);
        const { status, json } = await uploadMedia(gw, { bytes, filename, contentType });
        assert.equal(json.RetCode, 0, json.Message);
        assert.equal(status, 200);
        const sha256 = createHash('sha256').update(bytes).digest('hex');
        assert.match(json.MediaId as string, /^wbm_[A-Za-z0-9_-]{22}$/);
        assert.deepEqual(
          { ...json, MediaId: 'x' },
          {
            RetCode: 0,
            Message: '',
            MediaId: 'x',
            MimeType: contentType,
            FileName: filename,
            FileSize: 300,
            Sha256: sha256,
          },
        );
        const stored = await gw.store.getMediaFile(1, json.MediaId as string);
        assert.ok(stored && Buffer.from(stored.bytes).equals(bytes), 'the bytes as sent');
      });
    }
  });

  it('takes the type field over the part Content-Type, without case or parameters', async () => {
    const part = {
      bytes: fileBytes(10),
      filename: 'voice',
      contentType: 'application/octet-stream',
    };
    const { json } = await uploadMedia(gw, part, { type: 'Audio/OGG; codecs=opus' });
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal(json.MimeType, 'audio/ogg');
  });

  it('takes the fields of a Graph upload (messaging_product, and type after the file)', async () => {
    const part = {
      bytes: fileBytes(10),
      filename: 'a.png',
      contentType: 'application/octet-stream',
    };
    const fields: [string, string][] = [['messaging_product', 'whatsapp']];
    const { json } = await uploadMedia(gw, part, { type: 'image/png', fields });
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal(json.MimeType, 'image/png');
  });

  it("stores a file as the uploading account's: another account's key finds none", async () => {
    const key = await accountKey(gw, 31);
    const part = { bytes: fileBytes(10), filename: 'a.png', contentType: 'image/png' };
    const { json } = await postMedia(gw, mediaForm(part), { key });
    assert.equal(json.RetCode, 0, json.Message);
    const id = json.MediaId as string;
    assert.equal((await gw.store.getMediaInfo(31, id))?.fileName, 'a.png');
    assert.equal(await gw.store.getMediaInfo(1, id), undefined);
  });

  it('gives each upload an id of its own, even of the same bytes', async () => {
    const part = { bytes: fileBytes(10), filename: 'a.png', contentType: 'image/png' };
    const [a, b] = [await uploadMedia(gw, part), await uploadMedia(gw, part)];
    assert.notEqual(a.json.MediaId, b.json.MediaId);
  });

  describe('refusals', () => {
    it('an image over 5 MB: 413, naming file and the limit', async () => {
      const part = { bytes: fileBytes(5_000_001), filename: 'big.png', contentType: 'image/png' };
      const answer = await uploadMedia(gw, part);
      refusedWith(answer, 413, LimitExceeded, 'file');
      assert.equal(
        answer.json.Message,
        'file must be at most 5 MB for an image (got 5000001 bytes)',
      );
    });

    it('a sticker over 500 KB, and a static one over 100 KB', async () => {
      const big = { bytes: fileBytes(500_001), filename: 's.webp', contentType: 'image/webp' };
      refusedWith(await uploadMedia(gw, big), 413, LimitExceeded, 'file');
      const still = { bytes: fileBytes(100_001), filename: 's.webp', contentType: 'image/webp' };
      const answer = await uploadMedia(gw, still);
      refusedWith(answer, 413, LimitExceeded, 'file');
      assert.match(answer.json.Message, /at most 100 KB for a static sticker/);
    });

    it('a file over the limit its type field named first: read no further than that', async () => {
      const form = new FormData();
      form.append('type', 'image/jpeg');
      form.append('file', new Blob([fileBytes(6_000_000)]), 'big.jpg');
      const answer = await postMedia(gw, form);
      refusedWith(answer, 413, LimitExceeded, 'file');
      assert.equal(answer.json.Message, 'file must be at most 5 MB for an image');
    });

    it('no file part', async () => {
      refusedWith(
        await uploadMedia(gw, undefined, { type: 'image/png' }),
        200,
        MissingParameter,
        'file',
      );
    });

    it('file sent as a plain field', async () => {
      const form = new FormData();
      form.append('file', 'not a file');
      refusedWith(await postMedia(gw, form), 200, InvalidParameter, 'file');
    });

    it('an empty file', async () => {
      const part = { bytes: new Uint8Array(0), filename: 'e.png', contentType: 'image/png' };
      refusedWith(await uploadMedia(gw, part), 200, InvalidParameter, 'file');
    });

    it('a type WhatsApp does not take, in the type field or the part', async () => {
      const part = { bytes: fileBytes(10), filename: 'a.gif', contentType: 'image/gif' };
      const typed = await uploadMedia(gw, part, { type: 'image/gif' });
      refusedWith(typed, 200, InvalidParameter, 'type');
      assert.match(typed.json.Message, /"image\/gif" is not a type WhatsApp takes; .*image\/jpeg/);
      refusedWith(await uploadMedia(gw, part), 200, InvalidParameter, 'file');
      const none = { ...part, contentType: '' };
      refusedWith(await uploadMedia(gw, none), 200, InvalidParameter, 'file');
    });

    it('a binary file that a missing Content-Type made text/plain', async () => {
      const body = [
        '--b',
        'Content-Disposition: form-data; name="file"; filename="photo"',
        '',
        '\u0000\u0001binary',
        '--b--',
        '',
      ].join('\r\n');
      const headers = { 'content-type': 'multipart/form-data; boundary=b' };
      refusedWith(await postMedia(gw, body, { headers }), 200, InvalidParameter, 'file');
    });

    it('a field it does not take, and a second file', async () => {
      const part = { bytes: fileBytes(10), filename: 'a.png', contentType: 'image/png' };
      const extra = await uploadMedia(gw, part, { fields: [['caption', 'hi']] });
      refusedWith(extra, 200, InvalidParameter, '"caption"');
      const twice = await uploadMedia(gw, part, { fields: [['file', new Blob([fileBytes(3)])]] });
      refusedWith(twice, 200, InvalidParameter, 'file');
      const product = await uploadMedia(gw, part, { fields: [['messaging_product', 'sms']] });
      refusedWith(product, 200, InvalidParameter, 'messaging_product');
    });

    it('a body that is not multipart/form-data: 415', async () => {
      const json = JSON.stringify({ file: 'abc' });
      const headers = { 'content-type': 'application/json' };
      refusedWith(await postMedia(gw, json, { headers }), 415, MalformedRequest, 'Content-Type');
      refusedWith(await postMedia(gw, undefined), 415, MalformedRequest, 'Content-Type');
      const text = { 'content-type': 'text/plain' };
      refusedWith(
        await postMedia(gw, 'hello', { headers: text }),
        415,
        MalformedRequest,
        'Content-Type',
      );
    });

    it('a multipart body that is cut short: 400', async () => {
      const body =
        '--b\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\n\r\nabc';
      const headers = { 'content-type': 'multipart/form-data; boundary=b' };
      const answer = await postMedia(gw, body, { headers });
      assert.equal(answer.json.RetCode, MalformedRequest, answer.json.Message);
      assert.equal(answer.status, 400);
    });

    it('no API key, or an unknown one: 401, before the body is read', async () => {
      const part = { bytes: fileBytes(10), filename: 'a.png', contentType: 'image/png' };
      refusedWith(
        await uploadMedia(gw, part, { key: null }),
        401,
        Unauthenticated,
        'Authorization',
      );
      refusedWith(
        await uploadMedia(gw, part, { key: 'wb_nope' }),
        401,
        Unauthenticated,
        'the API key',
      );
      const json = await postMedia(gw, 'x', {
        key: null,
        headers: { 'content-type': 'text/plain' },
      });
      assert.equal(json.status, 401, 'the key is checked before the Content-Type');
    });
  });
});
