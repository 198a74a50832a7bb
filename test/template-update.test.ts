import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import { queryOne, stored, templateAt, updateTemplate } from './helpers/templates.js';

const NOT_APPROVED = [0, 1, 3, 4];

describe('UpdateUSMSTemplate', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw.close());

  /** Asserts the refusal's RetCode and field, and that the stored template did not change. */
  async function refused(id: string, fields: Record<string, unknown>, code: number, field: RegExp) {
    const before = await stored(gw, id);
    const { status, json } = await updateTemplate(gw, { TemplateId: id, ...fields });
    assert.equal(json.RetCode, code, json.Message);
    assert.equal(status, 200);
    assert.equal(json.Action, 'UpdateUSMSTemplateResponse');
    assert.match(json.Message, field);
    assert.deepEqual(await stored(gw, id), before, 'a refused update changes nothing');
  }

  async function updated(id: string, fields: Record<string, unknown>) {
    const { status, json } = await updateTemplate(gw, { TemplateId: id, ...fields });
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal(status, 200);
    assert.equal(json.Action, 'UpdateUSMSTemplateResponse');
    return stored(gw, id);
  }

  for (const status of NOT_APPROVED) {
    it(`a content change on status ${status} resets it to 0 and clears ErrDesc`, async () => {
      const id = await templateAt(gw, status);
      const before = await stored(gw, id);
      const t = await updated(id, { Template: 'Hello {1}, this is new content' });
      assert.equal(t.status, 0);
      assert.equal(t.errDesc, '');
      assert.equal(t.template, 'Hello {1}, this is new content');
      assert.equal(t.templateName, before.templateName);
      assert.equal(t.createdAt, before.createdAt, 'CreateTime is kept');
      const out = await queryOne(gw, id);
      assert.equal(out.Status, 0);
      assert.equal(out.ErrDesc, '');
    });

    it(`a name-only change on status ${status} keeps the status and ErrDesc`, async () => {
      const id = await templateAt(gw, status);
      const before = await stored(gw, id);
      const t = await updated(id, { TemplateName: 'renamed' });
      assert.equal(t.templateName, 'renamed');
      assert.equal(t.status, status);
      assert.equal(t.errDesc, before.errDesc);
      assert.equal(t.template, before.template);
    });
  }

  it('a rejected template keeps its ErrDesc through a rename', async () => {
    const id = await templateAt(gw, 3);
    const t = await updated(id, { TemplateName: 'renamed' });
    assert.equal(t.errDesc, 'too vague');
  });

  it('changes Remark and Instruction along with the content', async () => {
    const id = await templateAt(gw, 0);
    const t = await updated(id, {
      Template: 'Order {1} shipped',
      Remark: 'new reason',
      Instruction: '{1} the order number',
    });
    assert.equal(t.remark, 'new reason');
    assert.equal(t.instruction, '{1} the order number');
  });

  it('refuses neither TemplateName nor Template with 18001', async () => {
    const id = await templateAt(gw, 0);
    const re = /TemplateName|Template/;
    await refused(id, {}, RetCode.MissingParameter, re);
    await refused(id, { Remark: 'only a remark' }, RetCode.MissingParameter, re);
    await refused(id, { TemplateName: '', Template: '' }, RetCode.MissingParameter, re);
  });

  it('refuses an approved template with 18020 and leaves it unchanged', async () => {
    const id = await templateAt(gw, 2);
    await refused(id, { Template: 'Sneaky {1} change' }, RetCode.StateConflict, new RegExp(id));
    await refused(id, { TemplateName: 'renamed' }, RetCode.StateConflict, /approved/);
    assert.equal((await queryOne(gw, id)).Status, 2);
  });

  it('counts Template up to 600 characters on update: 600 accepted, 601 refused', async () => {
    const id = await templateAt(gw, 0);
    const t = await updated(id, { Template: 'u'.repeat(600) });
    assert.equal(t.template, 'u'.repeat(600));
    const t2 = await updated(id, { Template: '改'.repeat(600) });
    assert.equal(t2.template, '改'.repeat(600));
    await refused(id, { Template: 'u'.repeat(601) }, RetCode.InvalidParameter, /Template/);
    await refused(id, { Template: '改'.repeat(601) }, RetCode.InvalidParameter, /Template/);
  });

  it('refuses a TemplateName of 33 characters and a Remark of 129', async () => {
    const id = await templateAt(gw, 0);
    await refused(id, { TemplateName: 'n'.repeat(33) }, RetCode.InvalidParameter, /TemplateName/);
    await refused(id, { TemplateName: '名'.repeat(33) }, RetCode.InvalidParameter, /TemplateName/);
    const t = await updated(id, { TemplateName: '名'.repeat(32) });
    assert.equal(t.templateName, '名'.repeat(32));
    await refused(
      id,
      { TemplateName: 'x', Remark: 'r'.repeat(129) },
      RetCode.InvalidParameter,
      /Remark/,
    );
  });

  it('applies the variable rules to new content', async () => {
    const id = await templateAt(gw, 3);
    await refused(id, { Template: '{1}{2}' }, RetCode.InvalidParameter, /Template/);
    await refused(id, { Template: 'Code {0}' }, RetCode.InvalidParameter, /Template/);
  });

  it('refuses wrong types naming the field', async () => {
    const id = await templateAt(gw, 0);
    await refused(id, { TemplateName: 5 }, RetCode.InvalidParameter, /TemplateName/);
    await refused(id, { Template: ['x'] }, RetCode.InvalidParameter, /Template/);
  });

  it('answers an unknown TemplateId with 18010', async () => {
    const { json } = await updateTemplate(gw, {
      TemplateId: 'UTANOSUCHTEMPLATE',
      TemplateName: 'renamed',
    });
    assert.equal(json.RetCode, RetCode.NotFound);
    assert.match(json.Message, /UTANOSUCHTEMPLATE/);
  });

  it('refuses a missing TemplateId with 18001', async () => {
    const { json } = await updateTemplate(gw, { TemplateName: 'renamed' });
    assert.equal(json.RetCode, RetCode.MissingParameter);
    assert.match(json.Message, /TemplateId/);
  });
});
