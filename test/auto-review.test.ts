import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { eventually, startTestGateway, type TestGateway } from './helpers/gateway.js';
import { createTemplate, queryOne, stored, updateTemplate } from './helpers/templates.js';

/** Waits until QueryUSMSTemplate shows a verdict (2 or 3) and returns the OutTemplate. */
function verdict(gw: TestGateway, id: string): Promise<Record<string, unknown>> {
  return eventually(async () => {
    const t = await queryOne(gw, id);
    return t.Status === 2 || t.Status === 3 ? t : undefined;
  }, `a review verdict on ${id}`);
}

describe('automatic template review', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway({ templateReview: 'auto', bannedWords: ['casino'] });
  });
  after(() => gw.close());

  it('approves a clean template (Status 2, no ErrDesc)', async () => {
    const id = await createTemplate(gw, { Template: 'Your parcel {1} arrives on {2}.' });
    const t = await verdict(gw, id);
    assert.equal(t.Status, 2);
    assert.equal(t.ErrDesc, '');
    assert.equal((await stored(gw, id)).status, 2);
  });

  it('refuses a banned word in any case, naming it in ErrDesc', async () => {
    const id = await createTemplate(gw, { Template: 'Win big at the Casino tonight, {1}!' });
    const t = await verdict(gw, id);
    assert.equal(t.Status, 3);
    assert.match(t.ErrDesc as string, /casino/i);
    assert.equal((await stored(gw, id)).errDesc, t.ErrDesc);
  });

  it('refuses a verification template (Purpose 1) without a variable', async () => {
    const id = await createTemplate(gw, { Purpose: 1, Template: 'Your code is on its way.' });
    const t = await verdict(gw, id);
    assert.equal(t.Status, 3);
    assert.match(t.ErrDesc as string, /variable/);
  });

  it('approves a verification template with a variable for the code', async () => {
    const id = await createTemplate(gw, { Purpose: 1, Template: 'Your code is {1}.' });
    assert.equal((await verdict(gw, id)).Status, 2);
  });

  it('refuses a brace that is not a {N} variable, and a gap in the numbering', async () => {
    const named = await createTemplate(gw, { Template: 'Hello {name}, welcome' });
    const gap = await createTemplate(gw, { Template: 'Hello {1}, order {3}' });
    const a = await verdict(gw, named);
    const b = await verdict(gw, gap);
    assert.equal(a.Status, 3);
    assert.match(a.ErrDesc as string, /variable/);
    assert.equal(b.Status, 3);
    assert.match(b.ErrDesc as string, /\{2\}/);
  });

  it('re-reviews and approves a rejected template whose content is updated', async () => {
    const id = await createTemplate(gw, { Template: 'Casino night for {1}' });
    assert.equal((await verdict(gw, id)).Status, 3);
    const { json } = await updateTemplate(gw, { TemplateId: id, Template: 'Game night for {1}' });
    assert.equal(json.RetCode, 0, json.Message);
    const t = await eventually(async () => {
      const out = await queryOne(gw, id);
      return out.Status === 2 ? out : undefined;
    }, 'approval of the updated content');
    assert.equal(t.ErrDesc, '');
    assert.equal(t.Template, 'Game night for {1}');
  });

  it('refuses updated content longer than the automatic limit (500)', async () => {
    const rejected = await createTemplate(gw, { Template: 'Casino {1}' });
    assert.equal((await verdict(gw, rejected)).Status, 3);
    const { json } = await updateTemplate(gw, {
      TemplateId: rejected,
      Template: 'x'.repeat(597) + '{1}',
    });
    assert.equal(json.RetCode, 0, json.Message);
    const t = await eventually(async () => {
      const out = await queryOne(gw, rejected);
      return out.Status === 3 && out.Template !== 'Casino {1}' ? out : undefined;
    }, 'a verdict on the long content');
    assert.match(t.ErrDesc as string, /length/);
  });
});

describe('manual template review', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway(); // the harness defaults to manual review
  });
  after(() => gw.close());

  it('leaves new and updated templates pending (Status 0)', async () => {
    const id = await createTemplate(gw, { Template: 'Your parcel {1} arrives soon.' });
    const other = await createTemplate(gw, { Template: 'Casino {1}' });
    const { json } = await updateTemplate(gw, { TemplateId: other, Template: 'Games {1}' });
    assert.equal(json.RetCode, 0, json.Message);
    // Nothing moves a template in manual mode; every later request still sees it pending.
    for (const t of [id, other]) {
      assert.equal((await queryOne(gw, t)).Status, 0);
      assert.equal((await stored(gw, t)).status, 0);
    }
    const { json: list } = await gw.admin('GET', '/admin/templates?status=0');
    const ids = (list.DataSet as { TemplateId: string }[]).map((t) => t.TemplateId);
    assert.ok(ids.includes(id) && ids.includes(other));
  });
});
