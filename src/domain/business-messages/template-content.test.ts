import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RetCode } from '../errors.js';
import { parseBusinessContent } from './content.js';
import { refused } from '../../../test/helpers/refused.js';

const { MissingParameter, InvalidParameter } = RetCode;

const EN = { code: 'en_US', policy: 'deterministic' };
const template = (fields: Record<string, unknown>) =>
  parseBusinessContent('template', JSON.stringify({ name: 'otp', language: EN, ...fields }));
const body = (...texts: string[]) => ({
  type: 'body',
  parameters: texts.map((text) => ({ type: 'text', text })),
});

describe("the spec's template shapes", () => {
  it('verification code: body text plus url button with one text', () => {
    const components = [
      body('583921'),
      {
        type: 'button',
        sub_type: 'url',
        index: '0',
        parameters: [{ type: 'text', text: '583921' }],
      },
    ];
    assert.deepEqual(template({ name: 'verify_code', components }), {
      type: 'template',
      template: { name: 'verify_code', language: EN, components },
    });
  });
  it('variable template: body with several text parameters', () => {
    const components = [body('Ada', 'ORD-12345', '25 January')];
    assert.deepEqual(template({ name: 'order_shipped', components }), {
      type: 'template',
      template: { name: 'order_shipped', language: EN, components },
    });
  });
  it('quick reply: header text plus three quick_reply buttons at 0, 1 and 2', () => {
    const button = (index: string, payload: string) => ({
      type: 'button',
      sub_type: 'quick_reply',
      index,
      parameters: [{ type: 'payload', payload }],
    });
    const components = [
      { type: 'header', parameters: [{ type: 'text', text: 'Ada' }] },
      button('0', 'YES'),
      button('1', 'NO'),
      button('2', 'STOP'),
    ];
    assert.deepEqual(template({ name: 'survey', components }), {
      type: 'template',
      template: { name: 'survey', language: EN, components },
    });
  });
});

describe('template name', () => {
  it('is required and not blank', () => {
    refused(() => template({ name: undefined }), MissingParameter, 'Content.name');
    refused(() => template({ name: '' }), MissingParameter, 'Content.name');
    refused(() => template({ name: '  ' }), InvalidParameter, 'Content.name');
    refused(() => template({ name: 5 }), InvalidParameter, 'Content.name');
  });
  it('takes at most 512 characters', () => {
    assert.equal(template({ name: 'n'.repeat(512) }).type, 'template');
    refused(() => template({ name: 'n'.repeat(513) }), InvalidParameter, 'Content.name');
  });
});

describe('template language', () => {
  it('is a required object', () => {
    refused(() => template({ language: undefined }), MissingParameter, 'Content.language');
    refused(() => template({ language: 'en_US' }), InvalidParameter, 'Content.language');
  });
  it('needs a code', () => {
    refused(
      () => template({ language: { policy: 'deterministic' } }),
      MissingParameter,
      'Content.language.code',
    );
  });
  it('takes a language_REGION code', () => {
    for (const code of ['en_US', 'pt_BR', 'zh_CN', 'fil_PH']) {
      const content = template({ language: { code, policy: 'deterministic' } });
      assert.ok(content.type === 'template');
      assert.deepEqual(content.template.language, { code, policy: 'deterministic' });
    }
  });
  it('refuses other code shapes', () => {
    for (const code of [
      'en',
      'fil',
      'en-US',
      'EN_US',
      'en_us',
      'english',
      'e',
      'en_USA',
      'en_US ',
      7,
    ]) {
      refused(
        () => template({ language: { code, policy: 'deterministic' } }),
        InvalidParameter,
        'Content.language.code',
      );
    }
  });
  it('needs policy "deterministic" and nothing else', () => {
    refused(
      () => template({ language: { code: 'en_US' } }),
      MissingParameter,
      'Content.language.policy',
    );
    for (const policy of ['fallback', 'Deterministic', true]) {
      refused(
        () => template({ language: { code: 'en_US', policy } }),
        InvalidParameter,
        'Content.language.policy',
      );
    }
  });
  it('refuses other fields', () => {
    refused(
      () => template({ language: { ...EN, region: 'US' } }),
      InvalidParameter,
      'Content.language.region',
    );
  });
});

describe('template components', () => {
  it('is an optional array, dropped when empty', () => {
    assert.deepEqual(template({ components: [] }), {
      type: 'template',
      template: { name: 'otp', language: EN },
    });
    refused(() => template({ components: body('x') }), InvalidParameter, 'Content.components');
  });
  it('takes at most 10 items', () => {
    const many = Array.from({ length: 11 }, () => ({ type: 'body' }));
    refused(() => template({ components: many }), InvalidParameter, 'Content.components');
  });
  it('refuses a second header or body', () => {
    refused(
      () => template({ components: [{ type: 'header' }, body('a'), { type: 'header' }] }),
      InvalidParameter,
      'Content.components[2].type',
    );
    refused(
      () => template({ components: [body('a'), body('b')] }),
      InvalidParameter,
      'Content.components[1].type',
    );
  });
  it('refuses two buttons with the same index, even as 0 and "0"', () => {
    const url = { type: 'button', sub_type: 'url', index: 0 };
    const reply = { type: 'button', sub_type: 'quick_reply', index: '0' };
    refused(
      () => template({ components: [url, reply] }),
      InvalidParameter,
      'Content.components[1].index',
    );
  });
  it('names the template and refuses other fields', () => {
    refused(() => template({ namespace: 'x' }), InvalidParameter, 'Content.namespace');
  });
});

describe('body text parameter length', () => {
  it('is 32768 when the body is sent alone', () => {
    assert.equal(template({ components: [body('a'.repeat(32768))] }).type, 'template');
    refused(
      () => template({ components: [body('a'.repeat(32769))] }),
      InvalidParameter,
      'Content.components[0].parameters[0].text',
    );
  });
  it('is 1024 when a header or a button is sent too', () => {
    const header = { type: 'header', parameters: [{ type: 'text', text: 'Hi' }] };
    assert.equal(template({ components: [header, body('a'.repeat(1024))] }).type, 'template');
    refused(
      () => template({ components: [header, body('x', 'a'.repeat(1025))] }),
      InvalidParameter,
      'Content.components[1].parameters[1].text',
    );
  });
});
