import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RetCode, WirebirdError } from '../errors.js';
import { TemplateStatus } from './template.js';
import { newTemplate, type CreateTemplateInput } from './template-rules.js';
import { refused } from '../../../test/helpers/refused.js';

const ids = { templateId: 'UTA2001', accountId: 7 };
const NOW = 1_700_000_000_000;
const valid: CreateTemplateInput = { purpose: 1, templateName: 'login', template: 'Code {1}' };
const create = (over: Partial<CreateTemplateInput>) => newTemplate({ ...valid, ...over }, ids, NOW);

test('newTemplate returns a pending template with the given fields and defaults', () => {
  assert.deepEqual(newTemplate(valid, ids, NOW), {
    templateId: 'UTA2001',
    accountId: 7,
    purpose: 1,
    templateName: 'login',
    template: 'Code {1}',
    status: TemplateStatus.Pending,
    remark: '',
    errDesc: '',
    instruction: '',
    international: false,
    unsubscribeInfo: '',
    createdAt: NOW,
    updatedAt: NOW,
    version: 0,
  });
});

test('newTemplate keeps Remark and Instruction', () => {
  const t = create({ remark: 'for logins', instruction: '{1} is a 6-digit code' });
  assert.equal(t.remark, 'for logins');
  assert.equal(t.instruction, '{1} is a 6-digit code');
});

test('newTemplate accepts Purpose 1, 2 and 3', () => {
  for (const purpose of [1, 2, 3]) assert.equal(create({ purpose }).purpose, purpose);
});

test('newTemplate refuses any other Purpose', () => {
  for (const purpose of [0, 4, -1, 2.5]) {
    refused(() => create({ purpose }), RetCode.InvalidParameter, 'Purpose');
  }
});

test('newTemplate: TemplateName of 32 characters is accepted, 33 refused', () => {
  assert.equal(create({ templateName: 'n'.repeat(32) }).templateName.length, 32);
  refused(() => create({ templateName: 'n'.repeat(33) }), RetCode.InvalidParameter, 'TemplateName');
});

test('newTemplate: 32 Chinese characters are accepted as a TemplateName, 33 refused', () => {
  create({ templateName: '验'.repeat(32) });
  refused(
    () => create({ templateName: '验'.repeat(33) }),
    RetCode.InvalidParameter,
    'TemplateName',
  );
});

test('newTemplate: an emoji counts as one character', () => {
  create({ templateName: `${'n'.repeat(31)}👍🏽` });
  create({ templateName: `${'n'.repeat(31)}👨‍👩‍👧‍👦` });
  refused(
    () => create({ templateName: `${'n'.repeat(32)}👍🏽` }),
    RetCode.InvalidParameter,
    'TemplateName',
  );
});

test('newTemplate: empty TemplateName is missing, blank is invalid', () => {
  refused(() => create({ templateName: '' }), RetCode.MissingParameter, 'TemplateName');
  refused(() => create({ templateName: '   ' }), RetCode.InvalidParameter, 'TemplateName');
});

test('newTemplate: Template of 500 characters is accepted, 501 refused', () => {
  const at500 = `Code {1}${'x'.repeat(492)}`;
  assert.equal(create({ template: at500 }).template, at500);
  refused(() => create({ template: `${at500}x` }), RetCode.InvalidParameter, 'Template');
});

test('newTemplate: 500 Chinese characters are accepted as a Template', () => {
  create({ template: '码'.repeat(500) });
  refused(() => create({ template: '码'.repeat(501) }), RetCode.InvalidParameter, 'Template');
});

test('newTemplate: empty Template is missing, blank is invalid', () => {
  refused(() => create({ template: '' }), RetCode.MissingParameter, 'Template');
  refused(() => create({ template: ' \n ' }), RetCode.InvalidParameter, 'Template');
});

test('newTemplate: Remark of 128 characters is accepted, 129 refused', () => {
  assert.equal(create({ remark: 'r'.repeat(128) }).remark.length, 128);
  refused(() => create({ remark: 'r'.repeat(129) }), RetCode.InvalidParameter, 'Remark');
});

test('newTemplate: Instruction of 500 characters is accepted, 501 refused', () => {
  create({ instruction: 'i'.repeat(500) });
  refused(() => create({ instruction: 'i'.repeat(501) }), RetCode.InvalidParameter, 'Instruction');
});

test('newTemplate accepts variables numbered from {1}', () => {
  assert.equal(create({ template: 'Hi {1}, your code is {2}' }).status, TemplateStatus.Pending);
});

test('newTemplate refuses {0} and leading zeros', () => {
  refused(() => create({ template: 'Code {0}' }), RetCode.InvalidParameter, 'Template');
  refused(() => create({ template: 'Code {01}' }), RetCode.InvalidParameter, 'Template');
  refused(() => create({ template: 'Code {00}' }), RetCode.InvalidParameter, 'Template');
});

test('newTemplate refuses a variable number above 999', () => {
  create({ template: 'Code {999}' });
  refused(() => create({ template: 'Code {1000}' }), RetCode.InvalidParameter, 'Template');
});

test('newTemplate refuses a template made only of variables', () => {
  for (const template of ['{1}', '{1}{2}', ' {1} \n {2} ']) {
    assert.throws(
      () => create({ template }),
      (e: unknown) =>
        e instanceof WirebirdError &&
        e.retCode === RetCode.InvalidParameter &&
        e.message === 'Template must contain text besides variables',
    );
  }
});

test('newTemplate lets other braces through as text', () => {
  assert.equal(create({ template: 'Hi {name}' }).template, 'Hi {name}');
  assert.equal(create({ template: 'a { lone brace' }).template, 'a { lone brace');
  assert.equal(create({ template: '{a}' }).template, '{a}');
});

test('newTemplate checks Purpose first, then TemplateName, then Template', () => {
  const all = { purpose: 9, templateName: '', template: '' };
  refused(() => create(all), RetCode.InvalidParameter, 'Purpose');
  refused(() => create({ ...all, purpose: 2 }), RetCode.MissingParameter, 'TemplateName');
});
