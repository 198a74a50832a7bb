import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TemplateStatus, type Template } from '../templates/template.js';
import { planBatch, type BatchContext } from './plan-batch.js';

const template: Template = {
  templateId: 'UTA1',
  accountId: 1,
  purpose: 2,
  templateName: 'code',
  template: 'Your code is {1}',
  status: TemplateStatus.Approved,
  remark: '',
  errDesc: '',
  instruction: '',
  international: false,
  unsubscribeInfo: '',
  createdAt: 0,
  updatedAt: 0,
  version: 0,
};

const ctx = (senderIds: string[]): BatchContext => ({
  templates: new Map([[template.templateId, template]]),
  senderIds: new Set(senderIds),
  defaultRegion: 'CN',
  maxSegments: 3,
  route: () => 'simulator',
  optedOut: new Set(),
  verificationExempt: false,
});

const one = (SenderId: string) => [
  { TemplateId: 'UTA1', SenderId, Target: [{ Phone: '+8613800000013', TemplateParams: ['1234'] }] },
];

test('a sender that can be a source address is sent as one, the text left alone', () => {
  const [m] = planBatch(one('Acme'), ctx(['Acme'])).accepted;
  assert.equal(m?.senderId, 'Acme');
  assert.equal(m.text, 'Your code is 1234');
});

test('a signature that cannot be a source address heads the text as 【signature】, counted', () => {
  const [m] = planBatch(one('优刻得'), ctx(['优刻得'])).accepted;
  assert.equal(m?.senderId, '', "sent from the route's default sender");
  assert.equal(m.text, '【优刻得】Your code is 1234');
  assert.equal(m.costCount, 1);
});

test('a sender the account does not have fails the group, signature or not', () => {
  const plan = planBatch(one('优刻得'), ctx([]));
  assert.equal(plan.accepted.length, 0);
  assert.match(plan.failContent[0]?.FailureDetails ?? '', /SenderId 优刻得 is not registered/);
});

test('a message rendered into more segments than maxSegments fails its number only, with its RetCode', () => {
  const groups = [
    {
      TemplateId: 'UTA1',
      Target: [
        { Phone: '+8613800000013', TemplateParams: ['x'.repeat(153 * 3 - 13)] },
        { Phone: '+8613800000014', TemplateParams: ['x'.repeat(153 * 3 - 12)] },
      ],
    },
  ];
  const plan = planBatch(groups, ctx([]));
  assert.equal(plan.accepted.length, 1);
  assert.equal(plan.accepted[0]?.costCount, 3);
  const reason = plan.failContent[0]?.Target[0]?.FailureDetails ?? '';
  assert.match(
    reason,
    /^message too long \(RetCode 18021\): the rendered text needs 4 segments; at most 3/,
  );
});

test('a number that opted out fails its own row with RetCode 18022; Purpose 1 may be exempt', () => {
  const phone = '+8613800000001';
  const groups = [
    {
      TemplateId: template.templateId,
      Target: [
        { Phone: phone, TemplateParams: ['1'] },
        { Phone: '+8613800000002', TemplateParams: ['2'] },
      ],
    },
  ];
  const out = planBatch(groups, { ...ctx([]), optedOut: new Set([phone]) });
  assert.deepEqual(
    out.accepted.map((m) => m.e164),
    ['+8613800000002'],
  );
  assert.match(out.failContent[0]?.Target[0]?.FailureDetails ?? '', /opted out.*RetCode 18022/);
  const verification = { ...template, purpose: 1 as const };
  const exempt = {
    ...ctx([]),
    templates: new Map([[template.templateId, verification]]),
    optedOut: new Set([phone]),
  };
  assert.equal(planBatch(groups, exempt).accepted.length, 1, 'not exempt by default');
  assert.equal(planBatch(groups, { ...exempt, verificationExempt: true }).accepted.length, 2);
});
