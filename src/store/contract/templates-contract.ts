import assert from 'node:assert/strict';
import { describe } from 'node:test';
import { TemplateStatus, type Template } from '../../domain/templates/template.js';
import { ACCOUNT, NOW, OTHER_ACCOUNT, storeTest, template, type OpenStore } from './fixtures.js';

const ids = (list: readonly Template[]): string[] => list.map((t) => t.templateId).sort();

export function templatesContract(open: OpenStore): void {
  const test = storeTest(open);

  describe('templates', () => {
    test('insertTemplate then getTemplateById and getTemplates read it back whole', async (store) => {
      const t = template({ purpose: 3, errDesc: 'none', remark: 'r', instruction: 'i' });
      await store.insertTemplate(t);
      assert.deepEqual(await store.getTemplateById(t.templateId), t);
      assert.deepEqual(await store.getTemplates(ACCOUNT, [t.templateId]), [t]);
      assert.equal(await store.getTemplateById('UTA-missing'), undefined);
    });

    test('getTemplates answers only the ids asked for, skipping unknown ones', async (store) => {
      const a = template();
      const b = template();
      const c = template();
      for (const t of [a, b, c]) await store.insertTemplate(t);
      const got = await store.getTemplates(ACCOUNT, [a.templateId, c.templateId, 'UTA-missing']);
      assert.deepEqual(ids(got), ids([a, c]));
      assert.deepEqual(await store.getTemplates(ACCOUNT, []), []);
    });

    test("getTemplates never returns another account's template", async (store) => {
      const mine = template();
      const theirs = template({ accountId: OTHER_ACCOUNT });
      await store.insertTemplate(mine);
      await store.insertTemplate(theirs);
      assert.deepEqual(await store.getTemplates(ACCOUNT, [theirs.templateId]), []);
      assert.deepEqual(
        ids(await store.getTemplates(ACCOUNT, [mine.templateId, theirs.templateId])),
        [mine.templateId],
      );
      assert.deepEqual(await store.getTemplates(OTHER_ACCOUNT, [theirs.templateId]), [theirs]);
    });

    test('replaceTemplate saves when nobody saved since the read, bumping the version', async (store) => {
      const t = template({ status: TemplateStatus.UnderReview });
      await store.insertTemplate(t);
      const next: Template = {
        ...t,
        status: TemplateStatus.Approved,
        templateName: 'Renamed',
        template: 'Your order {1} is on its way',
        remark: 'new remark',
        errDesc: '',
        instruction: 'new instruction',
        updatedAt: NOW + 60_000,
      };
      const saved = await store.replaceTemplate(next);
      assert.deepEqual(saved, { ...next, version: t.version + 1 });
      assert.deepEqual(await store.getTemplateById(t.templateId), saved);
    });

    test('replaceTemplate is a compare-and-set: a save from a stale read changes nothing', async (store) => {
      const t = template({ status: TemplateStatus.UnderReview });
      await store.insertTemplate(t);
      const approved = { ...t, status: TemplateStatus.Approved, updatedAt: NOW + 1 };
      const saved = await store.replaceTemplate(approved);
      assert.ok(saved);
      const stale: Template = {
        ...t,
        status: TemplateStatus.FailedReview,
        templateName: 'Stale edit',
        errDesc: 'rejected',
        updatedAt: NOW + 2,
      };
      assert.equal(await store.replaceTemplate(stale), undefined);
      assert.deepEqual(await store.getTemplateById(t.templateId), saved);
      // The same holds when the stale save keeps the status: a rename is not undone by a review.
      assert.equal(await store.replaceTemplate({ ...t, templateName: 'stale name' }), undefined);
      assert.equal((await store.getTemplateById(t.templateId))?.templateName, t.templateName);
    });

    test('replaceTemplate of an unknown template is false and stores nothing', async (store) => {
      const t = template();
      assert.equal(await store.replaceTemplate(t), undefined);
      assert.equal(await store.getTemplateById(t.templateId), undefined);
    });

    test('listTemplates filters by status, by account, by both, or not at all', async (store) => {
      const reviewMine = template({ status: TemplateStatus.UnderReview });
      const approvedMine = template({ status: TemplateStatus.Approved, createdAt: NOW + 1 });
      const reviewTheirs = template({
        accountId: OTHER_ACCOUNT,
        status: TemplateStatus.UnderReview,
        createdAt: NOW + 2,
      });
      const pendingMine = template({ status: TemplateStatus.Pending, createdAt: NOW + 3 });
      const all = [reviewMine, approvedMine, reviewTheirs, pendingMine];
      for (const t of all) await store.insertTemplate(t);

      assert.deepEqual(ids(await store.listTemplates({})), ids(all));
      assert.deepEqual(
        ids(await store.listTemplates({ status: TemplateStatus.UnderReview })),
        ids([reviewMine, reviewTheirs]),
      );
      assert.deepEqual(
        ids(await store.listTemplates({ status: TemplateStatus.Pending })),
        ids([pendingMine]),
      );
      assert.deepEqual(
        ids(await store.listTemplates({ accountId: ACCOUNT })),
        ids([reviewMine, approvedMine, pendingMine]),
      );
      assert.deepEqual(
        ids(await store.listTemplates({ status: TemplateStatus.UnderReview, accountId: ACCOUNT })),
        ids([reviewMine]),
      );
      assert.deepEqual(await store.listTemplates({ status: TemplateStatus.Disabled }), []);
    });

    test('listTemplates sees a status changed by replaceTemplate', async (store) => {
      const t = template({ status: TemplateStatus.UnderReview });
      await store.insertTemplate(t);
      await store.replaceTemplate({ ...t, status: TemplateStatus.Approved });
      assert.deepEqual(await store.listTemplates({ status: TemplateStatus.UnderReview }), []);
      assert.deepEqual(ids(await store.listTemplates({ status: TemplateStatus.Approved })), [
        t.templateId,
      ]);
    });
  });
}
