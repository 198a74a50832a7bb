import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RetCode, WirebirdError } from '../errors.js';
import { TemplateStatus, type Template } from './template.js';
import { updateTemplate } from './template-rules.js';
import { refused } from '../../../test/helpers/refused.js';

const NOW = 1_700_000_500_000;
const tpl = (over: Partial<Template> = {}): Template => ({
  templateId: 'UTA2001',
  accountId: 7,
  purpose: 2,
  templateName: 'welcome',
  template: 'Hello {1}',
  status: TemplateStatus.Pending,
  remark: 'first',
  errDesc: '',
  instruction: 'a name',
  international: false,
  unsubscribeInfo: '',
  createdAt: 1_000,
  updatedAt: 1_000,
  version: 0,
  ...over,
});

const notApproved = [
  TemplateStatus.Pending,
  TemplateStatus.UnderReview,
  TemplateStatus.FailedReview,
  TemplateStatus.Disabled,
];

test('updateTemplate without TemplateName or Template is MissingParameter', () => {
  for (const input of [{}, { templateName: '', template: '' }, { remark: 'only a remark' }]) {
    refused(
      () => updateTemplate(tpl(), input, NOW),
      RetCode.MissingParameter,
      'TemplateName or Template',
    );
  }
});

test('updateTemplate refuses an approved template with StateConflict naming it', () => {
  assert.throws(
    () => updateTemplate(tpl({ status: TemplateStatus.Approved }), { templateName: 'x' }, NOW),
    (e: unknown) =>
      e instanceof WirebirdError &&
      e.retCode === RetCode.StateConflict &&
      e.message === 'template UTA2001 is approved and cannot be updated',
  );
});

test('updateTemplate: a content change resets every non-approved status to pending', () => {
  for (const status of notApproved) {
    const current = tpl({ status, errDesc: 'too vague' });
    const t = updateTemplate(current, { template: 'Hello {1}, welcome' }, NOW);
    assert.equal(t.status, TemplateStatus.Pending, `from status ${status}`);
    assert.equal(t.errDesc, '', `from status ${status}`);
    assert.equal(t.template, 'Hello {1}, welcome');
  }
});

test('updateTemplate: a name-only change keeps every non-approved status', () => {
  for (const status of notApproved) {
    const current = tpl({ status, errDesc: 'too vague' });
    const t = updateTemplate(current, { templateName: 'renamed' }, NOW);
    assert.equal(t.status, status);
    assert.equal(t.errDesc, 'too vague');
    assert.equal(t.templateName, 'renamed');
    assert.equal(t.template, 'Hello {1}');
  }
});

test('updateTemplate: the same content again keeps every non-approved status', () => {
  for (const status of notApproved) {
    const t = updateTemplate(tpl({ status }), { template: 'Hello {1}', templateName: 'n2' }, NOW);
    assert.equal(t.status, status);
    assert.equal(t.templateName, 'n2');
  }
});

test('updateTemplate treats an empty TemplateName or Template as not given', () => {
  const renamed = updateTemplate(tpl(), { templateName: 'renamed', template: '' }, NOW);
  assert.equal(renamed.template, 'Hello {1}');
  const rewritten = updateTemplate(tpl(), { templateName: '', template: 'Hi {1}' }, NOW);
  assert.equal(rewritten.templateName, 'welcome');
  assert.equal(rewritten.template, 'Hi {1}');
});

test('updateTemplate sets updatedAt and keeps createdAt, id, account and purpose', () => {
  const t = updateTemplate(tpl(), { templateName: 'x' }, NOW);
  assert.equal(t.updatedAt, NOW);
  assert.equal(t.createdAt, 1_000);
  assert.equal(t.templateId, 'UTA2001');
  assert.equal(t.accountId, 7);
  assert.equal(t.purpose, 2);
});

test('updateTemplate updates Remark and Instruction when given, keeps them otherwise', () => {
  const kept = updateTemplate(tpl(), { templateName: 'x' }, NOW);
  assert.equal(kept.remark, 'first');
  assert.equal(kept.instruction, 'a name');
  const changed = updateTemplate(
    tpl(),
    { templateName: 'x', remark: 'second', instruction: '' },
    NOW,
  );
  assert.equal(changed.remark, 'second');
  assert.equal(changed.instruction, '');
});

test('updateTemplate: Template of 600 characters is accepted, 601 refused', () => {
  const at600 = `Hello {1}${'x'.repeat(591)}`;
  assert.equal(updateTemplate(tpl(), { template: at600 }, NOW).template, at600);
  refused(
    () => updateTemplate(tpl(), { template: `${at600}x` }, NOW),
    RetCode.InvalidParameter,
    'Template',
  );
});

test('updateTemplate: TemplateName of 32 characters is accepted, 33 refused', () => {
  updateTemplate(tpl(), { templateName: '名'.repeat(32) }, NOW);
  refused(
    () => updateTemplate(tpl(), { templateName: 'n'.repeat(33) }, NOW),
    RetCode.InvalidParameter,
    'TemplateName',
  );
});

test('updateTemplate: Remark of 128 characters is accepted, 129 refused', () => {
  updateTemplate(tpl(), { templateName: 'x', remark: 'r'.repeat(128) }, NOW);
  refused(
    () => updateTemplate(tpl(), { templateName: 'x', remark: 'r'.repeat(129) }, NOW),
    RetCode.InvalidParameter,
    'Remark',
  );
});

test('updateTemplate: Instruction over 500 characters is refused', () => {
  refused(
    () => updateTemplate(tpl(), { templateName: 'x', instruction: 'i'.repeat(501) }, NOW),
    RetCode.InvalidParameter,
    'Instruction',
  );
});

test('updateTemplate applies the variable rules of creation', () => {
  for (const template of ['Code {0}', 'Code {01}', '{1} {2}']) {
    refused(() => updateTemplate(tpl(), { template }, NOW), RetCode.InvalidParameter, 'Template');
  }
  refused(
    () => updateTemplate(tpl(), { templateName: '  ' }, NOW),
    RetCode.InvalidParameter,
    'TemplateName',
  );
  assert.equal(updateTemplate(tpl(), { template: 'Hi {name}' }, NOW).template, 'Hi {name}');
});

test('updateTemplate checks the request before the status', () => {
  const approved = tpl({ status: TemplateStatus.Approved });
  refused(
    () => updateTemplate(approved, {}, NOW),
    RetCode.MissingParameter,
    'TemplateName or Template',
  );
  refused(
    () => updateTemplate(approved, { template: 'x'.repeat(601) }, NOW),
    RetCode.InvalidParameter,
    'Template',
  );
});

test('updateTemplate does not modify the template it was given', () => {
  const current = tpl({ status: TemplateStatus.FailedReview });
  const copy = structuredClone(current);
  updateTemplate(current, { template: 'New {1}' }, NOW);
  assert.deepEqual(current, copy);
});
