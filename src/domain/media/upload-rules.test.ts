import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetCode } from '../errors.js';
import { refused } from '../../../test/helpers/refused.js';
import { formatBytes, kindOfMimeType, normaliseMimeType } from './media-kinds.js';
import { checkUpload, fileTooLarge, isAnimatedWebp, readLimitOf } from './upload-rules.js';

const { InvalidParameter, LimitExceeded } = RetCode;
const head = new Uint8Array(32);
const upload =
  (mimeType: string, size: number, mimeField: 'type' | 'file' = 'type') =>
  () =>
    checkUpload({ mimeType, mimeField, size, head });

/** The first bytes of an extended WebP, with or without the animation flag. */
function webpHead(animated: boolean): Uint8Array {
  const bytes = new Uint8Array(32);
  bytes.set(Buffer.from('RIFF'), 0);
  bytes.set(Buffer.from('WEBPVP8X'), 8);
  bytes[20] = animated ? 0x02 : 0x00;
  return bytes;
}

describe('media kinds', () => {
  it('reads a MIME type without case or parameters', () => {
    assert.equal(normaliseMimeType(' Audio/OGG; codecs=opus '), 'audio/ogg');
    assert.equal(kindOfMimeType('audio/ogg'), 'audio');
    assert.equal(kindOfMimeType('image/webp'), 'sticker');
    assert.equal(kindOfMimeType('image/gif'), undefined);
  });

  it('writes sizes in the units of the limits', () => {
    assert.deepEqual([5_000_000, 500_000, 1_234_567, 999].map(formatBytes), [
      '5 MB',
      '500 KB',
      '1.2 MB',
      '999 bytes',
    ]);
  });

  it('reads a file up to its kind limit, or the largest when the kind is not known yet', () => {
    assert.equal(readLimitOf('image/png'), 5_000_000);
    assert.equal(readLimitOf(undefined), 100_000_000);
    assert.equal(readLimitOf('application/octet-stream'), 100_000_000);
  });
});

describe('checkUpload', () => {
  it('answers the kind of each MIME type WhatsApp takes, at its limit', () => {
    assert.equal(upload('image/jpeg', 5_000_000)(), 'image');
    assert.equal(upload('video/3gpp', 16_000_000)(), 'video');
    assert.equal(upload('audio/amr', 16_000_000)(), 'audio');
    assert.equal(upload('application/pdf', 100_000_000)(), 'document');
    assert.equal(upload('image/webp', 100_000)(), 'sticker');
  });

  it('refuses an empty file', () => {
    refused(upload('image/png', 0), InvalidParameter, 'file');
  });

  it('refuses a type WhatsApp does not take, naming where the type came from', () => {
    refused(upload('image/gif', 10), InvalidParameter, 'type');
    refused(upload('application/octet-stream', 10, 'file'), InvalidParameter, 'file');
  });

  it('refuses text/plain that is not text (what a part without a Content-Type says)', () => {
    const binary = new Uint8Array([0xff, 0xd8, 0xff, 0x00]);
    refused(
      () => checkUpload({ mimeType: 'text/plain', mimeField: 'file', size: 4, head: binary }),
      InvalidParameter,
      'file',
    );
    const text = new TextEncoder().encode('hello');
    assert.equal(
      checkUpload({ mimeType: 'text/plain', mimeField: 'file', size: 5, head: text }),
      'document',
    );
  });

  it('refuses a file over its kind limit, saying the limit', () => {
    refused(upload('image/png', 5_000_001), LimitExceeded, 'file');
    assert.equal(
      fileTooLarge('image/png', 6_000_000).message,
      'file must be at most 5 MB for an image (got 6000000 bytes)',
    );
    assert.match(fileTooLarge(undefined).message, /at most 100 MB, the most WhatsApp takes/);
  });

  it('takes a sticker over 100 KB only when it is an animated WebP', () => {
    assert.equal(isAnimatedWebp(webpHead(true)), true);
    assert.equal(isAnimatedWebp(webpHead(false)), false);
    const sticker = (animated: boolean) => () =>
      checkUpload({
        mimeType: 'image/webp',
        mimeField: 'file',
        size: 400_000,
        head: webpHead(animated),
      });
    assert.equal(sticker(true)(), 'sticker');
    refused(sticker(false), LimitExceeded, 'file');
    refused(upload('image/webp', 500_001), LimitExceeded, 'file');
  });
});
