import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RetCode, WirebirdError } from '../errors.js';
import { TemplateStatus, type Template } from './template.js';
import { reviewTemplate, type ReviewAction } from './template-review.js';

const NOW = 1_700_000_900_000;
const tpl = (status: TemplateStatus, errDesc = ''): Template => ({
  templateId: 'UTA2001',
  accountId: 7,
  purpose: 2,
  templateName: 'welcome',
  template: 'Hello {1}',
  status,
  remark: '',
  errDesc,
  instruction: '',
  international: false,
  unsubscribeInfo: '',
  createdAt: 1_000,
  updatedAt: 1_000,
  version: 0,
});

const { Pending, UnderReview, Approved, FailedReview, Disabled } = TemplateStatus;
const ALL = [Pending, UnderReview, Approved, FailedReview, Disabled];

const ALLOWED: Record<ReviewAction, { from: TemplateStatus[]; to: TemplateStatus }> = {
  startReview: { from: [Pending], to: UnderReview },
  approve: { from: [Pending, UnderReview], to: Approved },
  reject: { from: [Pending, UnderReview], to: FailedReview },
  disable: { from: [Pending, UnderReview, Approved, FailedReview], to: Disabled },
};

for (const [action, { from, to }] of Object.entries(ALLOWED) as [
  ReviewAction,
  (typeof ALLOWED)[ReviewAction],
][]) {
  for (const status of from) {
    test(`reviewTemplate: ${action} moves ${status} to ${to}`, () => {
      const t = reviewTemplate(tpl(status), action, NOW, 'reason');
      assert.equal(t.status, to);
      assert.equal(t.updatedAt, NOW);
      assert.equal(t.createdAt, 1_000);
    });
  }
  for (const status of ALL.filter((s) => !from.includes(s))) {
    test(`reviewTemplate: ${action} from ${status} is a StateConflict`, () => {
      assert.throws(
        () => reviewTemplate(tpl(status), action, NOW, 'reason'),
        (e: unknown) => {
          assert.ok(e instanceof WirebirdError);
          assert.equal(e.retCode, RetCode.StateConflict);
          assert.match(
            e.message,
            new RegExp(`^template UTA2001 is [a-z ]+ \\(${status}\\); ${action} is allowed from `),
          );
          return true;
        },
      );
    });
  }
}

test('reviewTemplate: the conflict message lists where the action is allowed from', () => {
  assert.throws(() => reviewTemplate(tpl(Approved), 'approve', NOW), {
    message:
      'template UTA2001 is approved (2); approve is allowed from pending (0) or under review (1)',
  });
  assert.throws(() => reviewTemplate(tpl(Disabled), 'disable', NOW), {
    message:
      'template UTA2001 is disabled (4); disable is allowed from pending (0), under review (1), approved (2) or failed review (3)',
  });
  assert.throws(() => reviewTemplate(tpl(FailedReview), 'startReview', NOW), {
    message: 'template UTA2001 is failed review (3); startReview is allowed from pending (0)',
  });
});

test('reviewTemplate: reject stores the reason in errDesc', () => {
  assert.equal(
    reviewTemplate(tpl(UnderReview), 'reject', NOW, 'unclear purpose').errDesc,
    'unclear purpose',
  );
});

test('reviewTemplate: reject without a reason is MissingParameter naming ErrDesc', () => {
  for (const errDesc of [undefined, '', '  ']) {
    assert.throws(
      () => reviewTemplate(tpl(UnderReview), 'reject', NOW, errDesc),
      (e: unknown) =>
        e instanceof WirebirdError &&
        e.retCode === RetCode.MissingParameter &&
        e.message === 'ErrDesc is required',
    );
  }
});

test('reviewTemplate: approve clears errDesc', () => {
  assert.equal(reviewTemplate(tpl(Pending, 'old reason'), 'approve', NOW).errDesc, '');
});

test('reviewTemplate: startReview keeps errDesc', () => {
  assert.equal(reviewTemplate(tpl(Pending, 'old'), 'startReview', NOW, 'ignored').errDesc, 'old');
});

test('reviewTemplate: disable records a reason when given, keeps errDesc otherwise', () => {
  assert.equal(reviewTemplate(tpl(FailedReview, 'old'), 'disable', NOW).errDesc, 'old');
  assert.equal(
    reviewTemplate(tpl(Approved), 'disable', NOW, 'abuse report').errDesc,
    'abuse report',
  );
});

test('reviewTemplate does not modify the template it was given', () => {
  const current = tpl(UnderReview);
  reviewTemplate(current, 'approve', NOW);
  assert.equal(current.status, UnderReview);
  assert.equal(current.updatedAt, 1_000);
});
