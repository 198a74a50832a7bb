import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseBusinessContent, parseBusinessContentAt } from './content.js';
import { mediaIdsOf, withDocumentFilenames, withMediaIds } from './media-refs.js';

const headerTemplate = {
  name: 'order_update',
  language: { code: 'en_US', policy: 'deterministic' },
  components: [
    {
      type: 'header',
      parameters: [{ type: 'document', document: { id: 'wbm_doc', filename: 'a.pdf' } }],
    },
    { type: 'body', parameters: [{ type: 'text', text: 'Ada' }] },
  ],
};

describe('media ids of a content object', () => {
  it('finds the id of a media message, named as the client wrote the Content', () => {
    const bare = parseBusinessContentAt('image', { id: 'wbm_1', caption: 'hi' });
    assert.deepEqual(mediaIdsOf(bare.content, bare.base), [
      { kind: 'image', path: 'Content.id', id: 'wbm_1' },
    ]);
    const wrapped = parseBusinessContentAt('sticker', { type: 'sticker', sticker: { id: '42' } });
    assert.deepEqual(mediaIdsOf(wrapped.content, wrapped.base), [
      { kind: 'sticker', path: 'Content.sticker.id', id: '42' },
    ]);
  });

  it('finds template header media ids', () => {
    const { content, base } = parseBusinessContentAt('template', headerTemplate);
    assert.deepEqual(mediaIdsOf(content, base), [
      { kind: 'document', path: 'Content.components[0].parameters[0].document.id', id: 'wbm_doc' },
    ]);
  });

  it('finds none in links, text or locations', () => {
    assert.deepEqual(
      mediaIdsOf(parseBusinessContent('image', { link: 'https://a.example/x.png' })),
      [],
    );
    assert.deepEqual(mediaIdsOf(parseBusinessContent('text', { body: 'hello' })), []);
    assert.deepEqual(
      mediaIdsOf(parseBusinessContent('location', { latitude: 1, longitude: 2 })),
      [],
    );
  });
});

describe('withMediaIds', () => {
  it('replaces ids in a copy, keeping the other fields and leaving the input untouched', () => {
    const content = parseBusinessContent('document', {
      id: 'wbm_1',
      filename: 'a.pdf',
      caption: 'c',
    });
    const copy = withMediaIds(content, (ref) => `meta-${ref.id}`);
    assert.deepEqual(copy, {
      type: 'document',
      document: { id: 'meta-wbm_1', caption: 'c', filename: 'a.pdf' },
    });
    assert.equal(content.type === 'document' && content.document.id, 'wbm_1');
  });

  it('replaces template header ids and keeps the rest of the template', () => {
    const content = parseBusinessContent('template', headerTemplate);
    const copy = withMediaIds(content, () => '777');
    const expected = structuredClone(parseBusinessContent('template', headerTemplate));
    assert.ok(expected.type === 'template');
    const header = expected.template.components?.[0]?.parameters?.[0];
    assert.ok(header?.type === 'document');
    header.document.id = '777';
    assert.deepEqual(copy, expected);
  });
});

describe('withDocumentFilenames', () => {
  it('names documents without a filename, and only those', () => {
    const nameOf = (id: string) => (id === 'wbm_1' ? 'invoice.pdf' : undefined);
    const unnamed = parseBusinessContent('document', { id: 'wbm_1', caption: 'c' });
    assert.deepEqual(withDocumentFilenames(unnamed, nameOf), {
      type: 'document',
      document: { id: 'wbm_1', caption: 'c', filename: 'invoice.pdf' },
    });
    const named = parseBusinessContent('document', { id: 'wbm_1', filename: 'March.pdf' });
    assert.deepEqual(withDocumentFilenames(named, nameOf), named);
    const unknown = parseBusinessContent('document', { id: '42' });
    assert.deepEqual(withDocumentFilenames(unknown, nameOf), unknown);
    const image = parseBusinessContent('image', { id: 'wbm_1' });
    assert.deepEqual(withDocumentFilenames(image, nameOf), image);
  });
});
