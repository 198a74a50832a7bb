import assert from 'node:assert/strict';
import type { Template } from '../../src/domain/templates/template.js';
import type { Answer, TestGateway } from './gateway.js';

/** The fields of a CreateUSMSTemplate request that passes every rule, with overrides. */
export function createBody(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    Action: 'CreateUSMSTemplate',
    AccountId: 1,
    Purpose: 2,
    TemplateName: 'welcome',
    Template: 'Hello {1}, welcome aboard',
    Remark: 'onboarding mail',
    ...fields,
  };
}

/** Creates a template (as account 1 unless `key` and AccountId say otherwise) and returns its id. */
export async function createTemplate(
  gw: TestGateway,
  fields: Record<string, unknown> = {},
  key?: string,
): Promise<string> {
  const { json } = await gw.api(createBody(fields), key === undefined ? {} : { key });
  assert.equal(json.RetCode, 0, json.Message);
  assert.equal(typeof json.TemplateId, 'string');
  return json.TemplateId as string;
}

export function queryTemplates(
  gw: TestGateway,
  ids: unknown,
  options: { accountId?: number; key?: string } = {},
): Promise<Answer> {
  return gw.api(
    { Action: 'QueryUSMSTemplate', AccountId: options.accountId ?? 1, TemplateId: ids },
    options.key === undefined ? {} : { key: options.key },
  );
}

/** The OutTemplate QueryUSMSTemplate answers for one id of account 1. */
export async function queryOne(gw: TestGateway, id: string): Promise<Record<string, unknown>> {
  const { json } = await queryTemplates(gw, [id]);
  assert.equal(json.RetCode, 0, json.Message);
  return json.Data as Record<string, unknown>;
}

export function updateTemplate(
  gw: TestGateway,
  fields: Record<string, unknown>,
  options: { accountId?: number; key?: string } = {},
): Promise<Answer> {
  return gw.api(
    { Action: 'UpdateUSMSTemplate', AccountId: options.accountId ?? 1, ...fields },
    options.key === undefined ? {} : { key: options.key },
  );
}

export async function stored(gw: TestGateway, id: string): Promise<Template> {
  const t = await gw.store.getTemplateById(id);
  assert.ok(t, `template ${id} should be stored`);
  return t;
}

export async function countTemplates(gw: TestGateway, accountId = 1): Promise<number> {
  return (await gw.store.listTemplates({ accountId })).length;
}

/** An admin review step that must succeed. */
export async function review(
  gw: TestGateway,
  id: string,
  verb: 'approve' | 'reject' | 'disable',
  body: Record<string, unknown> = {},
): Promise<void> {
  const { status, json } = await gw.admin('POST', `/admin/templates/${id}/${verb}`, body);
  assert.equal(json.RetCode, 0, json.Message);
  assert.equal(status, 200);
}

/**
 * A new template of account 1 driven to `status`: 1 through the store (no API moves a template
 * under review by hand), 2 approved, 3 rejected with an ErrDesc, 4 rejected then disabled (so it
 * keeps that ErrDesc).
 */
export async function templateAt(
  gw: TestGateway,
  status: number,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const id = await createTemplate(gw, fields);
  if (status === 1) {
    const t = await stored(gw, id);
    assert.ok(await gw.store.replaceTemplate({ ...t, status: 1 }));
  }
  if (status === 2) await review(gw, id, 'approve');
  if (status === 3 || status === 4) await review(gw, id, 'reject', { ErrDesc: 'too vague' });
  if (status === 4) await review(gw, id, 'disable');
  assert.equal((await stored(gw, id)).status, status);
  return id;
}

/** Gives account `accountId` a new API key through the admin API. */
export async function newAccountKey(gw: TestGateway, accountId: number): Promise<string> {
  const { status, json } = await gw.admin('POST', `/admin/accounts/${accountId}/keys`);
  assert.equal(status, 201, json.Message);
  assert.equal(typeof json.Key, 'string');
  return json.Key as string;
}
