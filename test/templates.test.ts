import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  countTemplates,
  createBody,
  createTemplate,
  queryOne,
  stored,
} from './helpers/templates.js';

describe('CreateUSMSTemplate', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw.close());

  /** Asserts the refusal's RetCode, that its Message names `field`, and that nothing was stored. */
  async function refused(fields: Record<string, unknown>, code: number, field: RegExp) {
    const before = await countTemplates(gw);
    const { status, json } = await gw.api(createBody(fields));
    assert.equal(json.RetCode, code, `${JSON.stringify(fields).slice(0, 80)}: ${json.Message}`);
    assert.equal(status, 200);
    assert.match(json.Message, field);
    assert.equal(json.Action, 'CreateUSMSTemplateResponse');
    assert.equal(json.TemplateId, undefined);
    assert.equal(await countTemplates(gw), before, 'a refused template must not be stored');
  }

  /** Asserts the template is created and stored with exactly the given field values. */
  async function accepted(fields: Record<string, unknown>) {
    const id = await createTemplate(gw, fields);
    const t = await stored(gw, id);
    if (typeof fields.TemplateName === 'string') assert.equal(t.templateName, fields.TemplateName);
    if (typeof fields.Template === 'string') assert.equal(t.template, fields.Template);
    if (typeof fields.Remark === 'string') assert.equal(t.remark, fields.Remark);
    return t;
  }

  it('returns a TemplateId and stores every field with Status 0 under manual review', async () => {
    const before = Date.now();
    const { status, json } = await gw.api(
      createBody({
        Purpose: 1,
        TemplateName: 'login code',
        Template: 'Your code is {1}, valid for {2} minutes',
        Remark: 'for the login page',
        Instruction: '{1} a 6-digit code, {2} minutes',
      }),
    );
    const after = Date.now();
    assert.equal(status, 200);
    assert.equal(json.RetCode, 0);
    assert.equal(json.Action, 'CreateUSMSTemplateResponse');
    assert.ok(!json.Message, 'Message is empty or absent on success');
    const id = json.TemplateId as string;
    assert.match(id, /^\S+$/);

    const t = await stored(gw, id);
    assert.equal(t.accountId, 1);
    assert.equal(t.purpose, 1);
    assert.equal(t.templateName, 'login code');
    assert.equal(t.template, 'Your code is {1}, valid for {2} minutes');
    assert.equal(t.remark, 'for the login page');
    assert.equal(t.instruction, '{1} a 6-digit code, {2} minutes');
    assert.equal(t.status, 0);
    assert.equal(t.errDesc, '');
    assert.ok(t.createdAt >= before && t.createdAt <= after, 'createdAt is the time of the call');

    const out = await queryOne(gw, id);
    const createTime = out.CreateTime as number;
    assert.ok(Number.isInteger(createTime), 'CreateTime is an int');
    assert.ok(
      createTime >= Math.floor(before / 1000) && createTime <= Math.ceil(after / 1000),
      `CreateTime ${createTime} is in Unix seconds`,
    );
  });

  it('gives each template its own TemplateId', async () => {
    const a = await createTemplate(gw);
    const b = await createTemplate(gw);
    assert.notEqual(a, b);
  });

  it('stores Remark and Instruction as "" when not given', async () => {
    const { Remark: _r, ...body } = createBody();
    const { json } = await gw.api(body);
    assert.equal(json.RetCode, 0, json.Message);
    const t = await stored(gw, json.TemplateId as string);
    assert.equal(t.remark, '');
    assert.equal(t.instruction, '');
  });

  it('counts TemplateName in characters: 32 accepted, 33 refused', async () => {
    await accepted({ TemplateName: 'n'.repeat(32) });
    await refused({ TemplateName: 'n'.repeat(33) }, RetCode.InvalidParameter, /TemplateName/);
  });

  it('counts a Chinese character as one: 32 accepted, 33 refused', async () => {
    await accepted({ TemplateName: '验'.repeat(32) });
    await refused({ TemplateName: '验'.repeat(33) }, RetCode.InvalidParameter, /TemplateName/);
  });

  it('counts an emoji as one character, even with a skin tone', async () => {
    await accepted({ TemplateName: '😀'.repeat(32) });
    await accepted({ TemplateName: '👍🏽'.repeat(32) });
    await refused({ TemplateName: '😀'.repeat(33) }, RetCode.InvalidParameter, /TemplateName/);
  });

  it('counts Template in characters: 500 accepted, 501 refused', async () => {
    await accepted({ Template: 'a'.repeat(500) });
    await accepted({ Template: 'a'.repeat(497) + '{1}' }); // a variable's braces count too
    await accepted({ Template: '通'.repeat(500) });
    await refused({ Template: 'a'.repeat(501) }, RetCode.InvalidParameter, /Template/);
    await refused({ Template: '通'.repeat(501) }, RetCode.InvalidParameter, /Template/);
  });

  it('counts Remark in characters: 128 accepted, 129 refused', async () => {
    await accepted({ Remark: 'r'.repeat(128) });
    await accepted({ Remark: '备'.repeat(128) });
    await refused({ Remark: 'r'.repeat(129) }, RetCode.InvalidParameter, /Remark/);
  });

  it('accepts Purpose 1, 2, 3 and a numeric string, stored as a number', async () => {
    for (const purpose of [1, 2, 3]) {
      assert.equal((await accepted({ Purpose: purpose })).purpose, purpose);
    }
    assert.equal((await accepted({ Purpose: '2' })).purpose, 2);
  });

  it('refuses Purpose 0, 4, -1, 2.5 and "abc" naming Purpose', async () => {
    for (const purpose of [0, 4, -1, '4', 2.5, 'abc', true]) {
      await refused({ Purpose: purpose }, RetCode.InvalidParameter, /Purpose/);
    }
  });

  it('refuses a missing TemplateName, Template or Purpose with 18001 naming it', async () => {
    for (const field of ['TemplateName', 'Template', 'Purpose']) {
      const { [field]: _left, ...body } = createBody();
      const before = await countTemplates(gw);
      const { json } = await gw.api(body);
      assert.equal(json.RetCode, RetCode.MissingParameter, field);
      assert.match(json.Message, new RegExp(`^${field}\\b`));
      assert.equal(await countTemplates(gw), before);
    }
  });

  it('refuses an empty TemplateName or Template as missing', async () => {
    await refused({ TemplateName: '' }, RetCode.MissingParameter, /TemplateName/);
    await refused({ Template: '' }, RetCode.MissingParameter, /Template/);
  });

  it('refuses a blank TemplateName or Template', async () => {
    await refused({ TemplateName: '   ' }, RetCode.InvalidParameter, /TemplateName/);
    await refused({ Template: ' \n ' }, RetCode.InvalidParameter, /Template/);
  });

  it('refuses wrong types with 18003 naming the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ TemplateName: 5 }, /TemplateName/],
      [{ Template: ['Hello'] }, /Template/],
      [{ Template: null }, /Template/],
      [{ Remark: 5 }, /Remark/],
      [{ Instruction: {} }, /Instruction/],
    ];
    for (const [fields, field] of cases) {
      await refused(fields, RetCode.InvalidParameter, field);
    }
  });

  it('refuses a template made only of variables', async () => {
    for (const template of ['{1}', '{1}{2}', ' {1} {2} ']) {
      await refused({ Template: template }, RetCode.InvalidParameter, /Template/);
    }
  });

  it('accepts variables numbered from {1}', async () => {
    const t = await accepted({ Template: 'Dear {1}, your order {2} ships on {3}.' });
    assert.equal(t.template, 'Dear {1}, your order {2} ships on {3}.');
  });

  it('refuses {0} and other badly numbered variables naming Template', async () => {
    for (const template of ['Code {0}', 'Code {00} ok', 'Code {01}']) {
      await refused({ Template: template }, RetCode.InvalidParameter, /Template.*\{0/);
    }
  });

  it("is refused for another account's AccountId (403, 171) and stores nothing", async () => {
    const before = await countTemplates(gw, 2);
    const { status, json } = await gw.api(createBody({ AccountId: 2 }));
    assert.equal(status, 403);
    assert.equal(json.RetCode, RetCode.PermissionDenied);
    assert.equal(await countTemplates(gw, 2), before);
  });
});
