import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RetCode } from '../src/domain/errors.js';
import { reviewById } from '../src/core/review.js';
import type { Store } from '../src/domain/ports.js';
import { startTestGateway, type TestGateway } from './helpers/gateway.js';
import { createTemplate, queryOne, stored, templateAt } from './helpers/templates.js';

type Verb = 'approve' | 'reject' | 'disable';

/** Wirebird's review workflow (src/domain/templates/template-review.ts): from → to, per verb. */
const ALLOWED: Record<Verb, { from: number[]; to: number }> = {
  approve: { from: [0, 1], to: 2 },
  reject: { from: [0, 1], to: 3 },
  disable: { from: [0, 1, 2, 3], to: 4 },
};

const STATUSES = [0, 1, 2, 3, 4];

describe('admin API: template review', () => {
  let gw: TestGateway;
  before(async () => {
    gw = await startTestGateway();
  });
  after(() => gw.close());

  const post = (id: string, verb: string, body: unknown = {}) =>
    gw.admin('POST', `/admin/templates/${id}/${verb}`, body);

  for (const verb of Object.keys(ALLOWED) as Verb[]) {
    const { from, to } = ALLOWED[verb];
    for (const status of STATUSES) {
      const allowed = from.includes(status);
      it(`${verb} from status ${status} is ${allowed ? `allowed (→ ${to})` : 'refused with 409'}`, async () => {
        const id = await templateAt(gw, status);
        const before = await stored(gw, id);
        const { status: http, json } = await post(id, verb, { ErrDesc: 'contains a URL' });
        if (allowed) {
          assert.equal(http, 200, json.Message);
          assert.equal(json.RetCode, 0);
          assert.equal((json.Data as Record<string, unknown>).Status, to);
          assert.equal((await stored(gw, id)).status, to);
          assert.equal((await queryOne(gw, id)).Status, to);
        } else {
          assert.equal(http, 409);
          assert.equal(json.RetCode, RetCode.StateConflict);
          assert.match(json.Message, new RegExp(id));
          assert.deepEqual(await stored(gw, id), before, 'a refused move changes nothing');
        }
      });
    }
  }

  it('reject stores the ErrDesc that QueryUSMSTemplate shows', async () => {
    const id = await createTemplate(gw);
    const { json } = await post(id, 'reject', { ErrDesc: 'contains a URL' });
    assert.equal(json.RetCode, 0, json.Message);
    assert.equal((await stored(gw, id)).errDesc, 'contains a URL');
    assert.equal((await queryOne(gw, id)).ErrDesc, 'contains a URL');
  });

  it('refuses reject without an ErrDesc (400, 18001) and leaves the template pending', async () => {
    const id = await createTemplate(gw);
    for (const body of [undefined, {}, { ErrDesc: '' }, { ErrDesc: '   ' }]) {
      const { status, json } = await post(id, 'reject', body);
      assert.equal(status, 400, JSON.stringify(body));
      assert.equal(json.RetCode, RetCode.MissingParameter);
      assert.match(json.Message, /ErrDesc/);
    }
    assert.equal((await stored(gw, id)).status, 0);
  });

  it('refuses an ErrDesc that is not a string (400, 18003)', async () => {
    const id = await createTemplate(gw);
    const { status, json } = await post(id, 'reject', { ErrDesc: 5 });
    assert.equal(status, 400);
    assert.equal(json.RetCode, RetCode.InvalidParameter);
    assert.match(json.Message, /ErrDesc/);
    assert.equal((await stored(gw, id)).status, 0);
  });

  it('answers an unknown TemplateId with 404 and 18010', async () => {
    for (const verb of ['approve', 'reject', 'disable']) {
      const { status, json } = await post('UTANOSUCHTEMPLATE', verb, { ErrDesc: 'x' });
      assert.equal(status, 404, verb);
      assert.equal(json.RetCode, RetCode.NotFound);
    }
  });

  it('answers an unknown operation with 404 and changes nothing', async () => {
    const id = await createTemplate(gw);
    const { status, json } = await post(id, 'delete');
    assert.equal(status, 404);
    assert.equal(json.RetCode, RetCode.NotFound);
    assert.equal((await stored(gw, id)).status, 0);
  });

  it('refuses a call without the admin key, with a wrong one or with an API key (401)', async () => {
    const id = await createTemplate(gw);
    for (const key of [null, 'wba_not-the-admin-key-at-all', gw.key]) {
      for (const verb of ['approve', 'reject', 'disable']) {
        const { status, json } = await gw.admin(
          'POST',
          `/admin/templates/${id}/${verb}`,
          { ErrDesc: 'x' },
          key,
        );
        assert.equal(status, 401, `${verb} with ${key === null ? 'no key' : key.slice(0, 4)}`);
        assert.equal(json.RetCode, RetCode.Unauthenticated);
      }
      const list = await gw.admin('GET', '/admin/templates?status=0', undefined, key);
      assert.equal(list.status, 401);
    }
    assert.equal((await stored(gw, id)).status, 0);
  });

  it('GET /admin/templates?status=0 lists the pending templates of every account', async () => {
    const pending = await createTemplate(gw, { TemplateName: 'listed' });
    const approved = await templateAt(gw, 2);
    const { status, json } = await gw.admin('GET', '/admin/templates?status=0');
    assert.equal(status, 200);
    assert.equal(json.RetCode, 0);
    const set = json.DataSet as Record<string, unknown>[];
    const ids = set.map((t) => t.TemplateId);
    assert.ok(ids.includes(pending));
    assert.ok(!ids.includes(approved));
    assert.ok(set.every((t) => t.Status === 0));
    const row = set.find((t) => t.TemplateId === pending);
    assert.equal(row?.AccountId, 1);
    assert.equal(row.TemplateName, 'listed');
    const storedPending = await gw.store.listTemplates({ status: 0 });
    assert.equal(set.length, storedPending.length);
  });

  it('refuses a status filter outside 0 to 4 with 400', async () => {
    for (const q of ['9', 'abc', '-1']) {
      const { status, json } = await gw.admin('GET', `/admin/templates?status=${q}`);
      assert.equal(status, 400, q);
      assert.equal(json.RetCode, RetCode.InvalidParameter);
      assert.match(json.Message, /status/);
    }
  });

  it('refuses a non-numeric accountId filter with 400', async () => {
    const { status, json } = await gw.admin('GET', '/admin/templates?accountId=abc');
    assert.equal(status, 400);
    assert.equal(json.RetCode, RetCode.InvalidParameter);
  });

  it('a review step does not undo a rename made while it was deciding', async () => {
    const id = await createTemplate(gw, { TemplateName: 'before' });
    // The reviewer reads the template, then a rename lands before it writes its decision.
    const racing: Store = {
      ...gw.store,
      getTemplateById: async (templateId) => {
        const t = await gw.store.getTemplateById(templateId);
        const { json } = await gw.api({
          Action: 'UpdateUSMSTemplate',
          AccountId: 1,
          TemplateId: templateId,
          TemplateName: 'after',
        });
        assert.equal(json.RetCode, 0, json.Message);
        return t;
      },
    };
    await reviewById(racing, id, { action: 'approve', now: Date.now() }).catch(() => undefined);
    const t = await stored(gw, id);
    // Either the rename survives the approval, or the approval is refused as a conflict.
    assert.equal(t.templateName, 'after');
  });
});
