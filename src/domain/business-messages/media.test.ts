import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetCode, WirebirdError } from '../errors.js';
import { parseBusinessContent } from './content.js';
import { refused } from '../../../test/helpers/refused.js';

const { MissingParameter, InvalidParameter } = RetCode;

const LINK = 'https://cdn.example.com/a.jpg';
const MEDIA = ['image', 'video', 'audio', 'document', 'sticker'] as const;

describe('media source (every media type)', () => {
  for (const type of MEDIA) {
    it(`${type}: needs id or link`, () => {
      refused(() => parseBusinessContent(type, {}), MissingParameter, 'Content.id or Content.link');
      refused(
        () => parseBusinessContent(type, { id: '', link: null }),
        MissingParameter,
        'Content.id or Content.link',
      );
    });
    it(`${type}: refuses both id and link`, () => {
      refused(
        () => parseBusinessContent(type, { id: '42', link: LINK }),
        InvalidParameter,
        'Content.link',
      );
    });
    it(`${type}: takes either one alone`, () => {
      assert.deepEqual(parseBusinessContent(type, { id: '42' }), { type, [type]: { id: '42' } });
      assert.deepEqual(parseBusinessContent(type, { id: '', link: LINK }), {
        type,
        [type]: { link: LINK },
      });
    });
  }
});

describe('media id', () => {
  it('is a string of at most 256 characters, not blank', () => {
    assert.equal(parseBusinessContent('image', { id: 'x'.repeat(256) }).type, 'image');
    refused(
      () => parseBusinessContent('image', { id: 'x'.repeat(257) }),
      InvalidParameter,
      'Content.id',
    );
    refused(() => parseBusinessContent('image', { id: '   ' }), InvalidParameter, 'Content.id');
  });
  it('refuses a number, which would lose digits past 2^53', () => {
    refused(
      () => parseBusinessContent('image', { id: 1166846181421424 }),
      InvalidParameter,
      'Content.id',
    );
  });
});

describe('media link', () => {
  it('takes absolute http and https URLs with a host, kept as written', () => {
    for (const link of [
      'http://x.io/a.png',
      'HTTPS://X.io/a.png?sig=1#f',
      'https://10.0.0.1:8443/a',
    ]) {
      assert.deepEqual(parseBusinessContent('image', { link }), { type: 'image', image: { link } });
    }
  });
  it('refuses other schemes, relative or host-less URLs, and whitespace', () => {
    const bad = [
      'ftp://x.io/a.png',
      'file:///etc/passwd',
      'data:image/png;base64,AAAA',
      '//x.io/a.png',
      '/a.png',
      'x.io/a.png',
      'http:x.io/a.png',
      'http:///x.io/a.png',
      'https://',
      'https://x.io/a b.png',
      ' https://x.io/a.png',
      'https://x.io/a.png\n',
      'https://[::1/a.png',
    ];
    for (const link of bad) {
      refused(() => parseBusinessContent('image', { link }), InvalidParameter, 'Content.link');
    }
  });
  it('refuses a link that is not a string', () => {
    refused(
      () => parseBusinessContent('image', { link: { href: LINK } }),
      InvalidParameter,
      'Content.link',
    );
  });
});

describe('caption', () => {
  it('is kept on image, video and document, up to 1024 characters', () => {
    for (const type of ['image', 'video', 'document'] as const) {
      const caption = '😀'.repeat(1024);
      assert.deepEqual(parseBusinessContent(type, { link: LINK, caption }), {
        type,
        [type]: { link: LINK, caption },
      });
      refused(
        () => parseBusinessContent(type, { link: LINK, caption: 'a'.repeat(1025) }),
        InvalidParameter,
        'Content.caption',
      );
      refused(
        () => parseBusinessContent(type, { link: LINK, caption: 7 }),
        InvalidParameter,
        'Content.caption',
      );
    }
  });
  it('is dropped when empty', () => {
    assert.deepEqual(parseBusinessContent('image', { link: LINK, caption: '' }), {
      type: 'image',
      image: { link: LINK },
    });
  });
  it('is refused on audio and sticker', () => {
    for (const type of ['audio', 'sticker'] as const) {
      assert.throws(
        () => parseBusinessContent(type, { link: LINK, caption: 'x' }),
        (e: unknown) =>
          e instanceof WirebirdError &&
          e.retCode === InvalidParameter &&
          e.message === `Content.caption is not allowed for ${type}`,
      );
    }
  });
});

describe('other media fields', () => {
  it('refuses fields a media type does not have', () => {
    refused(
      () => parseBusinessContent('audio', { id: '1', voice: true }),
      InvalidParameter,
      'Content.voice',
    );
    refused(
      () => parseBusinessContent('image', { id: '1', filename: 'a.png' }),
      InvalidParameter,
      'Content.filename',
    );
  });
  it('takes a document filename of at most 240 characters', () => {
    const filename = `${'f'.repeat(236)}.pdf`;
    assert.deepEqual(parseBusinessContent('document', { id: '9', filename }), {
      type: 'document',
      document: { id: '9', filename },
    });
    refused(
      () => parseBusinessContent('document', { id: '9', filename: `${filename}x` }),
      InvalidParameter,
      'Content.filename',
    );
    refused(
      () => parseBusinessContent('document', { id: '9', filename: ['a.pdf'] }),
      InvalidParameter,
      'Content.filename',
    );
  });
  it('drops an empty filename', () => {
    assert.deepEqual(parseBusinessContent('document', { id: '9', filename: '' }), {
      type: 'document',
      document: { id: '9' },
    });
  });
});
