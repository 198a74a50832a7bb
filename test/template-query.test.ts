import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RetCode } from '../src/domain/errors.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import {
  createTemplate,
  newAccountKey,
  queryTemplates,
  stored,
  updateTemplate,
} from './helpers/templates.js';

const OUT_TEMPLATE_FIELDS = [
  'CreateTime',
  'ErrDesc',
  'Instruction',
  'Purpose',
  'Remark',
  'Status',
  'Template',
  'TemplateId',
  'TemplateName',
];

describe('QueryUSMSTemplate', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw.close());

  async function refused(ids: unknown, code: number) {
    const { status, json } = await queryTemplates(gw, ids);
    assert.equal(json.RetCode, code, json.Message);
    assert.equal(status, 200);
    assert.equal(json.Action, 'QueryUSMSTemplateResponse');
    assert.match(json.Message, /TemplateId/);
    assert.equal(json.Data, undefined);
  }

  it("answers Data as an OutTemplate with exactly the spec's fields", async () => {
    const id = await createTemplate(gw, {
      Purpose: 3,
      TemplateName: 'spring sale',
      Template: 'Spring sale: {1} off until {2}',
      Remark: 'seasonal',
      Instruction: '{1} a percentage, {2} a date',
    });
    const { status, json } = await queryTemplates(gw, [id]);
    assert.equal(status, 200);
    assert.equal(json.RetCode, 0);
    assert.ok(!json.Message);
    const data = json.Data as Record<string, unknown>;
    assert.deepEqual(Object.keys(data).sort(), OUT_TEMPLATE_FIELDS);
    const t = await stored(gw, id);
    assert.deepEqual(data, {
      TemplateId: id,
      Purpose: 3,
      TemplateName: 'spring sale',
      Template: 'Spring sale: {1} off until {2}',
      Status: 0,
      Remark: 'seasonal',
      ErrDesc: '',
      CreateTime: Math.floor(t.createdAt / 1000),
      Instruction: '{1} a percentage, {2} a date',
    });
  });

  it('types every OutTemplate field as the spec does', async () => {
    const id = await createTemplate(gw);
    const { json } = await queryTemplates(gw, [id]);
    const data = json.Data as Record<string, unknown>;
    for (const f of [
      'TemplateId',
      'TemplateName',
      'Template',
      'Remark',
      'ErrDesc',
      'Instruction',
    ]) {
      assert.equal(typeof data[f], 'string', f);
    }
    for (const f of ['Purpose', 'Status', 'CreateTime']) {
      assert.ok(Number.isInteger(data[f]), `${f} is an int`);
    }
  });

  it('answers several ids in DataSet in the order asked', async () => {
    const a = await createTemplate(gw, { TemplateName: 'a' });
    const b = await createTemplate(gw, { TemplateName: 'b' });
    const c = await createTemplate(gw, { TemplateName: 'c' });
    const { json } = await queryTemplates(gw, [c, a, b]);
    assert.equal(json.RetCode, 0, json.Message);
    const set = json.DataSet as Record<string, unknown>[];
    assert.deepEqual(
      set.map((t) => t.TemplateId),
      [c, a, b],
    );
    assert.deepEqual(
      set.map((t) => t.TemplateName),
      ['c', 'a', 'b'],
    );
    assert.equal((json.Data as Record<string, unknown>).TemplateId, c);
  });

  it('answers an unknown TemplateId with 18010', async () => {
    const { status, json } = await queryTemplates(gw, ['UTANOSUCHTEMPLATE']);
    assert.equal(status, 200);
    assert.equal(json.RetCode, RetCode.NotFound);
    assert.match(json.Message, /UTANOSUCHTEMPLATE/);
  });

  it('refuses a missing TemplateId with 18001', async () => {
    const { json } = await gw.api({ Action: 'QueryUSMSTemplate', AccountId: 1 });
    assert.equal(json.RetCode, RetCode.MissingParameter);
    assert.match(json.Message, /TemplateId/);
  });

  it('refuses TemplateId [] and other malformed lists with 18003', async () => {
    await refused([], RetCode.InvalidParameter);
    await refused([''], RetCode.InvalidParameter);
    await refused([5], RetCode.InvalidParameter);
    await refused(5, RetCode.InvalidParameter);
  });

  it('takes up to 100 ids and refuses 101 with 18003', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => `UTAUNKNOWN${i}`);
    const hundred = await queryTemplates(gw, ids(100));
    assert.equal(hundred.json.RetCode, RetCode.NotFound, 'accepted, then none found');
    await refused(ids(101), RetCode.InvalidParameter);
  });
});

describe("another account's templates", () => {
  let gw: TestGateway;
  let key2: string;
  let theirs: string;
  before(async () => {
    gw = await startTestGateway();
    key2 = await newAccountKey(gw, 2);
    theirs = await createTemplate(gw, { AccountId: 2, TemplateName: 'theirs' }, key2);
  });
  after(() => gw.close());

  it('are visible to their own account', async () => {
    const { json } = await queryTemplates(gw, [theirs], { accountId: 2, key: key2 });
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal((json.Data as Record<string, unknown>).TemplateName, 'theirs');
    assert.equal((await stored(gw, theirs)).accountId, 2);
  });

  it('are not found by QueryUSMSTemplate as account 1 (18010)', async () => {
    const { json } = await queryTemplates(gw, [theirs]);
    assert.equal(json.RetCode, RetCode.NotFound);
    assert.equal(json.Data, undefined);
  });

  it('are left out of a query that mixes them with own templates', async () => {
    const mine = await createTemplate(gw);
    const { json } = await queryTemplates(gw, [theirs, mine]);
    assert.equal(json.RetCode, 0, json.Message);
    const set = json.DataSet as Record<string, unknown>[];
    assert.deepEqual(
      set.map((t) => t.TemplateId),
      [mine],
    );
  });

  it('are not found by UpdateUSMSTemplate as account 1 (18010) and stay unchanged', async () => {
    const before = await stored(gw, theirs);
    const { json } = await updateTemplate(gw, {
      TemplateId: theirs,
      TemplateName: 'hijacked',
      Template: 'Changed {1}',
    });
    assert.equal(json.RetCode, RetCode.NotFound);
    assert.deepEqual(await stored(gw, theirs), before);
  });

  it("cannot be reached by naming the other AccountId with account 1's key (403)", async () => {
    const { status, json } = await queryTemplates(gw, [theirs], { accountId: 2 });
    assert.equal(status, 403);
    assert.equal(json.RetCode, RetCode.PermissionDenied);
  });
});
