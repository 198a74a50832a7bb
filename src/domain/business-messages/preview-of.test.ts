import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBusinessContent, previewOf } from './content.js';

const preview = (type: string, content: unknown) => previewOf(parseBusinessContent(type, content));
const LINK = 'https://x.io/a';

describe('previewOf', () => {
  it('text: the body on one line', () => {
    assert.equal(preview('text', { body: 'Hello\n\n  *Ada*' }), 'Hello *Ada*');
  });
  it('long text is cut to 100 characters with an ellipsis, never inside an emoji', () => {
    const cut = preview('text', { body: '😀'.repeat(150) });
    assert.equal(Array.from(cut).length, 100);
    assert.equal(cut, `${'😀'.repeat(99)}…`);
    assert.equal(preview('text', { body: 'a'.repeat(100) }), 'a'.repeat(100));
  });
  it('image and video: the caption, or what it is', () => {
    assert.equal(preview('image', { link: LINK, caption: 'A cat' }), '📷 A cat');
    assert.equal(preview('image', { link: LINK }), '📷 Photo');
    assert.equal(preview('image', { link: LINK, caption: '  ' }), '📷 Photo');
    assert.equal(preview('video', { id: '1', caption: 'Clip' }), '🎥 Clip');
    assert.equal(preview('video', { id: '1' }), '🎥 Video');
  });
  it('audio and sticker: what it is', () => {
    assert.equal(preview('audio', { id: '1' }), '🎵 Audio');
    assert.equal(preview('sticker', { id: '1' }), '💟 Sticker');
  });
  it('document: the file name and caption', () => {
    assert.equal(
      preview('document', { link: LINK, filename: 'inv.pdf', caption: 'March' }),
      '📄 inv.pdf — March',
    );
    assert.equal(preview('document', { link: LINK, filename: 'inv.pdf' }), '📄 inv.pdf');
    assert.equal(preview('document', { link: LINK, caption: 'March' }), '📄 March');
    assert.equal(preview('document', { link: LINK }), '📄 Document');
  });
  it('location: the name, else the address, with the coordinates', () => {
    const point = { latitude: '37.48', longitude: -122.148 };
    assert.equal(
      preview('location', { ...point, name: 'HQ', address: '1 Way' }),
      '📍 HQ (37.48, -122.148)',
    );
    assert.equal(preview('location', { ...point, address: '1 Way' }), '📍 1 Way (37.48, -122.148)');
    assert.equal(preview('location', point), '📍 Location (37.48, -122.148)');
  });
  it('template: the name with its header and body text parameters', () => {
    const language = { code: 'en_US', policy: 'deterministic' };
    assert.equal(preview('template', { name: 'hello_world', language }), '📋 hello_world');
    const components = [
      { type: 'header', parameters: [{ type: 'text', text: 'Ada' }] },
      {
        type: 'body',
        parameters: [
          { type: 'text', text: 'ORD-1' },
          { type: 'text', text: 'Monday' },
        ],
      },
      { type: 'button', sub_type: 'url', index: 0, parameters: [{ type: 'text', text: 'ORD-1' }] },
    ];
    assert.equal(
      preview('template', { name: 'shipped', language, components }),
      '📋 shipped: Ada, ORD-1, Monday',
    );
    const media = [
      { type: 'header', parameters: [{ type: 'image', image: { link: LINK } }] },
      {
        type: 'button',
        sub_type: 'quick_reply',
        index: 0,
        parameters: [{ type: 'payload', payload: 'STOP' }],
      },
    ];
    assert.equal(preview('template', { name: 'promo', language, components: media }), '📋 promo');
  });
});
