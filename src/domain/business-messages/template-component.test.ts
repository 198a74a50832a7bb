import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetCode } from '../errors.js';
import { parseBusinessContent } from './content.js';
import { refused } from '../../../test/helpers/refused.js';

const { MissingParameter, InvalidParameter } = RetCode;

const LANGUAGE = { code: 'en_US', policy: 'deterministic' };
/** Parses a template with the one component given and returns that component. */
const component = (value: unknown): unknown => {
  const content = parseBusinessContent('template', {
    name: 't',
    language: LANGUAGE,
    components: [value],
  });
  assert.ok(content.type === 'template');
  return content.template.components?.[0];
};
const C0 = 'Content.components[0]';
const P0 = `${C0}.parameters[0]`;
const text = (value: string) => ({ type: 'text', text: value });
const payload = (value: string) => ({ type: 'payload', payload: value });
const url = (parameters: unknown[]) => ({
  type: 'button',
  sub_type: 'url',
  index: '0',
  parameters,
});
const reply = (parameters: unknown[]) => ({
  type: 'button',
  sub_type: 'quick_reply',
  index: '1',
  parameters,
});

describe('component type', () => {
  it('is required', () => {
    refused(() => component({ parameters: [] }), MissingParameter, `${C0}.type`);
  });
  it('is header, body or button', () => {
    for (const type of ['footer', 'BODY', 3]) {
      refused(() => component({ type }), InvalidParameter, `${C0}.type`);
    }
  });
  it('must be an object', () => {
    refused(() => component('body'), InvalidParameter, C0);
    refused(() => component(null), MissingParameter, C0);
  });
});

describe('button sub_type and index', () => {
  it('are required on buttons', () => {
    refused(() => component({ type: 'button', index: '0' }), MissingParameter, `${C0}.sub_type`);
    refused(() => component({ type: 'button', sub_type: 'url' }), MissingParameter, `${C0}.index`);
  });
  it('sub_type is url or quick_reply', () => {
    for (const sub_type of ['phone_number', 'URL', 1]) {
      refused(
        () => component({ type: 'button', sub_type, index: '0' }),
        InvalidParameter,
        `${C0}.sub_type`,
      );
    }
  });
  it('index is "0", "1" or "2"; integers are normalised to strings', () => {
    for (const [index, expected] of [
      ['2', '2'],
      [0, '0'],
      [2, '2'],
    ] as const) {
      assert.deepEqual(component({ type: 'button', sub_type: 'quick_reply', index }), {
        type: 'button',
        sub_type: 'quick_reply',
        index: expected,
      });
    }
    for (const index of ['3', 3, -1, 1.5, '01', ' 1', true]) {
      refused(
        () => component({ type: 'button', sub_type: 'url', index }),
        InvalidParameter,
        `${C0}.index`,
      );
    }
  });
  it('are refused on header and body', () => {
    refused(
      () => component({ type: 'header', sub_type: 'url' }),
      InvalidParameter,
      `${C0}.sub_type`,
    );
    refused(() => component({ type: 'body', index: '0' }), InvalidParameter, `${C0}.index`);
  });
  it('unknown fields are named', () => {
    refused(() => component({ ...url([]), text: 'Go' }), InvalidParameter, `${C0}.text`);
  });
});

describe('parameters array', () => {
  it('is an optional array, dropped when empty', () => {
    assert.deepEqual(component({ type: 'body', parameters: [] }), { type: 'body' });
    refused(
      () => component({ type: 'body', parameters: text('a') }),
      InvalidParameter,
      `${C0}.parameters`,
    );
  });
  it('each must be an object with a type', () => {
    refused(() => component({ type: 'body', parameters: ['a'] }), InvalidParameter, P0);
    refused(
      () => component({ type: 'body', parameters: [{ text: 'a' }] }),
      MissingParameter,
      `${P0}.type`,
    );
  });
});

describe('parameter types allowed per component', () => {
  it('a header takes text, image, video or document, one of them', () => {
    const image = { type: 'image', image: { link: 'https://x.io/a.png' } };
    const video = { type: 'video', video: { id: '77' } };
    const document = {
      type: 'document',
      document: { link: 'https://x.io/i.pdf', filename: 'i.pdf' },
    };
    for (const parameter of [text('Ada'), image, video, document]) {
      assert.deepEqual(component({ type: 'header', parameters: [parameter] }), {
        type: 'header',
        parameters: [parameter],
      });
    }
    refused(
      () => component({ type: 'header', parameters: [payload('x')] }),
      InvalidParameter,
      `${P0}.type`,
    );
    refused(
      () => component({ type: 'header', parameters: [text('a'), text('b')] }),
      InvalidParameter,
      `${C0}.parameters`,
    );
  });
  it('a header text takes at most 60 characters', () => {
    assert.ok(component({ type: 'header', parameters: [text('h'.repeat(60))] }));
    refused(
      () => component({ type: 'header', parameters: [text('h'.repeat(61))] }),
      InvalidParameter,
      `${P0}.text`,
    );
  });
  it('a body takes text only', () => {
    for (const parameter of [
      payload('x'),
      { type: 'image', image: { id: '1' } },
      { type: 'currency' },
    ]) {
      refused(
        () => component({ type: 'body', parameters: [parameter] }),
        InvalidParameter,
        `${P0}.type`,
      );
    }
  });
  it('a url button takes one text of at most 2000 characters', () => {
    assert.deepEqual(component(url([text('ORDER123')])), url([text('ORDER123')]));
    refused(() => component(url([payload('x')])), InvalidParameter, `${P0}.type`);
    refused(() => component(url([text('a'), text('b')])), InvalidParameter, `${C0}.parameters`);
    refused(() => component(url([text('u'.repeat(2001))])), InvalidParameter, `${P0}.text`);
  });
  it('a quick_reply button takes one payload of at most 1024 characters', () => {
    assert.deepEqual(component(reply([payload('STOP')])), reply([payload('STOP')]));
    refused(() => component(reply([text('x')])), InvalidParameter, `${P0}.type`);
    refused(
      () => component(reply([payload('a'), payload('b')])),
      InvalidParameter,
      `${C0}.parameters`,
    );
    refused(() => component(reply([payload('p'.repeat(1025))])), InvalidParameter, `${P0}.payload`);
  });
});

describe('parameter fields', () => {
  it('must carry the field its type names', () => {
    refused(
      () => component({ type: 'body', parameters: [{ type: 'text' }] }),
      MissingParameter,
      `${P0}.text`,
    );
    refused(() => component(reply([{ type: 'payload' }])), MissingParameter, `${P0}.payload`);
    refused(
      () => component({ type: 'header', parameters: [{ type: 'image' }] }),
      MissingParameter,
      `${P0}.image`,
    );
  });
  it('text and payload must not be blank or other than strings', () => {
    refused(
      () => component({ type: 'body', parameters: [text(' ')] }),
      InvalidParameter,
      `${P0}.text`,
    );
    refused(
      () => component({ type: 'body', parameters: [{ type: 'text', text: 5 }] }),
      InvalidParameter,
      `${P0}.text`,
    );
    refused(() => component(reply([payload('\t')])), InvalidParameter, `${P0}.payload`);
  });
  it('must carry nothing else', () => {
    refused(
      () => component({ type: 'body', parameters: [{ ...text('a'), payload: 'b' }] }),
      InvalidParameter,
      `${P0}.payload`,
    );
    refused(
      () => component({ type: 'body', parameters: [{ ...text('a'), parameter_name: 'n' }] }),
      InvalidParameter,
      `${P0}.parameter_name`,
    );
  });
});

describe('parameter media and positions', () => {
  it('header media follows the media rules, under its full path', () => {
    const header = (image: unknown) =>
      component({ type: 'header', parameters: [{ type: 'image', image }] });
    refused(() => header({}), MissingParameter, `${P0}.image.id or ${P0}.image.link`);
    refused(
      () => header({ id: '1', link: 'https://x.io/a.png' }),
      InvalidParameter,
      `${P0}.image.link`,
    );
    refused(() => header({ link: 'ftp://x.io/a.png' }), InvalidParameter, `${P0}.image.link`);
    refused(() => header({ id: '1', filename: 'a.png' }), InvalidParameter, `${P0}.image.filename`);
  });
  it('a sparse array is refused at its hole', () => {
    const parameters: unknown[] = [text('a')];
    parameters[2] = text('c');
    refused(() => component({ type: 'body', parameters }), MissingParameter, `${C0}.parameters[1]`);
  });
  it('paths name the component and parameter positions', () => {
    refused(
      () =>
        parseBusinessContent('template', {
          name: 't',
          language: LANGUAGE,
          components: [
            { type: 'body' },
            url([text('a')]),
            reply([{ type: 'payload', payload: 7 }]),
          ],
        }),
      InvalidParameter,
      'Content.components[2].parameters[0].payload',
    );
  });
});
