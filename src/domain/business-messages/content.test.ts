import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetCode, WirebirdError } from '../errors.js';
import { BUSINESS_MESSAGE_TYPES, parseBusinessContent } from './content.js';
import { refused } from '../../../test/helpers/refused.js';

const { MissingParameter, InvalidParameter } = RetCode;

const LINK = 'https://cdn.example.com/a.jpg';

describe('Type', () => {
  it('is required', () => {
    refused(() => parseBusinessContent(undefined, { body: 'hi' }), MissingParameter, 'Type');
    refused(() => parseBusinessContent(null, { body: 'hi' }), MissingParameter, 'Type');
    refused(() => parseBusinessContent('', { body: 'hi' }), MissingParameter, 'Type');
  });
  it('is checked before Content', () => {
    refused(() => parseBusinessContent(undefined, undefined), MissingParameter, 'Type');
  });
  it('is case-insensitive', () => {
    assert.equal(parseBusinessContent('Text', { body: 'hi' }).type, 'text');
    assert.equal(parseBusinessContent('IMAGE', { link: LINK }).type, 'image');
  });
  it('must be one of the eight kinds, and says which', () => {
    assert.throws(
      () => parseBusinessContent('contacts', {}),
      (e: unknown) =>
        e instanceof WirebirdError &&
        e.retCode === InvalidParameter &&
        e.message ===
          'Type must be one of text, image, video, audio, document, location, sticker or template',
    );
    refused(() => parseBusinessContent(' text', { body: 'hi' }), InvalidParameter, 'Type');
    refused(() => parseBusinessContent(1, { body: 'hi' }), InvalidParameter, 'Type');
  });
  it('lists the eight kinds', () => {
    assert.deepEqual(
      [...BUSINESS_MESSAGE_TYPES],
      ['text', 'image', 'video', 'audio', 'document', 'location', 'sticker', 'template'],
    );
  });
});

describe('Content', () => {
  it('is required', () => {
    refused(() => parseBusinessContent('text', undefined), MissingParameter, 'Content');
    refused(() => parseBusinessContent('text', null), MissingParameter, 'Content');
    refused(() => parseBusinessContent('text', ''), MissingParameter, 'Content');
  });
  it('is a string holding JSON, as the spec sends it', () => {
    assert.deepEqual(parseBusinessContent('text', '{"body":"hi"}'), {
      type: 'text',
      text: { body: 'hi' },
    });
  });
  it('may be an object already parsed', () => {
    assert.deepEqual(parseBusinessContent('text', { body: 'hi' }), {
      type: 'text',
      text: { body: 'hi' },
    });
  });
  it('refuses a string that is not JSON', () => {
    refused(() => parseBusinessContent('text', '{body: hi}'), InvalidParameter, 'Content');
    refused(() => parseBusinessContent('text', '   '), InvalidParameter, 'Content');
  });
  it('refuses JSON that is not an object', () => {
    for (const json of ['[]', '[{"body":"hi"}]', '42', 'null', '"hi"', 'true']) {
      refused(() => parseBusinessContent('text', json), InvalidParameter, 'Content');
    }
  });
  it('refuses values that are not plain objects', () => {
    refused(() => parseBusinessContent('text', [{ body: 'hi' }]), InvalidParameter, 'Content');
    refused(() => parseBusinessContent('text', 42), InvalidParameter, 'Content');
    refused(() => parseBusinessContent('text', new Map()), InvalidParameter, 'Content');
  });
  it('names every unknown field, quoting odd keys', () => {
    refused(
      () => parseBusinessContent('text', { body: 'hi', bdy: 'x', 'a b': 1 }),
      InvalidParameter,
      'Content.bdy, Content["a b"]',
    );
  });
  it('reports an unknown field before a missing one, as it is usually a typo of it', () => {
    refused(() => parseBusinessContent('text', { bdy: 'hi' }), InvalidParameter, 'Content.bdy');
  });
  it('tolerates unknown fields that are null or empty', () => {
    assert.deepEqual(
      parseBusinessContent('text', { body: 'hi', link: '', caption: null, preview_url: null }),
      { type: 'text', text: { body: 'hi' } },
    );
  });
  it('does not let a __proto__ key through', () => {
    refused(
      () => parseBusinessContent('text', '{"body":"hi","__proto__":{"x":1}}'),
      InvalidParameter,
      'Content.__proto__',
    );
  });
});

describe('Content in the WhatsApp Cloud API shape', () => {
  it('is unwrapped, with or without its type', () => {
    const expected = { type: 'image', image: { link: LINK, caption: 'c' } };
    assert.deepEqual(
      parseBusinessContent('image', { image: { link: LINK, caption: 'c' } }),
      expected,
    );
    const json = JSON.stringify({ type: 'image', image: { link: LINK, caption: 'c' } });
    assert.deepEqual(parseBusinessContent('image', json), expected);
  });
  it('names fields under Content.<type>', () => {
    refused(
      () =>
        parseBusinessContent('template', { template: { name: 'x', language: { code: 'en_US' } } }),
      MissingParameter,
      'Content.template.language.policy',
    );
  });
  it('refuses a type that differs from Type', () => {
    refused(
      () => parseBusinessContent('image', { type: 'video', image: { link: LINK } }),
      InvalidParameter,
      'Content.type',
    );
  });
  it('refuses other fields beside the wrapped object', () => {
    refused(
      () => parseBusinessContent('text', { to: '+15550001', text: { body: 'hi' } }),
      InvalidParameter,
      'Content.to',
    );
  });
});

describe('text', () => {
  it('needs a body', () => {
    refused(() => parseBusinessContent('text', {}), MissingParameter, 'Content.body');
    refused(() => parseBusinessContent('text', { body: '' }), MissingParameter, 'Content.body');
  });
  it('refuses a blank or non-string body', () => {
    refused(() => parseBusinessContent('text', { body: ' \n ' }), InvalidParameter, 'Content.body');
    refused(() => parseBusinessContent('text', { body: 42 }), InvalidParameter, 'Content.body');
  });
  it('takes 4096 characters, counted as code points', () => {
    const emoji = '😀'.repeat(4096);
    assert.equal(parseBusinessContent('text', { body: emoji }).type, 'text');
    refused(
      () => parseBusinessContent('text', { body: 'a'.repeat(4097) }),
      InvalidParameter,
      'Content.body',
    );
  });
  it('refuses a lone surrogate', () => {
    refused(
      () => parseBusinessContent('text', '{"body":"a\\ud800b"}'),
      InvalidParameter,
      'Content.body',
    );
  });
  it('takes preview_url as a boolean only', () => {
    assert.deepEqual(
      parseBusinessContent('text', { body: 'see https://x.io', preview_url: false }),
      {
        type: 'text',
        text: { body: 'see https://x.io', preview_url: false },
      },
    );
    for (const flag of ['true', 1, {}]) {
      refused(
        () => parseBusinessContent('text', { body: 'hi', preview_url: flag }),
        InvalidParameter,
        'Content.preview_url',
      );
    }
  });
});

describe('the happy path of each type', () => {
  const cases: [string, unknown, unknown][] = [
    [
      'text',
      { body: 'Hello *world*', preview_url: true },
      { body: 'Hello *world*', preview_url: true },
    ],
    ['image', { link: LINK, caption: 'A cat' }, { link: LINK, caption: 'A cat' }],
    [
      'video',
      { id: '1166846181421424', caption: 'Clip' },
      { id: '1166846181421424', caption: 'Clip' },
    ],
    ['audio', { id: '1013859600285441' }, { id: '1013859600285441' }],
    [
      'document',
      { link: 'https://x.io/inv.pdf', filename: 'inv.pdf', caption: 'Invoice' },
      { link: 'https://x.io/inv.pdf', filename: 'inv.pdf', caption: 'Invoice' },
    ],
    ['sticker', { link: 'https://x.io/s.webp' }, { link: 'https://x.io/s.webp' }],
    [
      'location',
      { latitude: '37.48', longitude: -122.148, name: 'HQ', address: '1 Hacker Way' },
      { latitude: 37.48, longitude: -122.148, name: 'HQ', address: '1 Hacker Way' },
    ],
    [
      'template',
      { name: 'hello_world', language: { code: 'en_US', policy: 'deterministic' } },
      { name: 'hello_world', language: { code: 'en_US', policy: 'deterministic' } },
    ],
  ];
  for (const [type, content, expected] of cases) {
    it(type, () => {
      assert.deepEqual(parseBusinessContent(type, JSON.stringify(content)), {
        type,
        [type]: expected,
      });
    });
  }
});
