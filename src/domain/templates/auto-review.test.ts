import assert from 'node:assert/strict';
import { test } from 'node:test';
import { DEFAULT_REVIEW_RULES, autoReviewVerdict, type ReviewRules } from './auto-review.js';
import { TemplateStatus, type Purpose, type Template } from './template.js';

const tpl = (template: string, purpose: Purpose = 2): Template => ({
  templateId: 'UTA2001',
  accountId: 7,
  purpose,
  templateName: 'welcome',
  template,
  status: TemplateStatus.UnderReview,
  remark: '',
  errDesc: '',
  instruction: '',
  international: false,
  unsubscribeInfo: '',
  createdAt: 1_000,
  updatedAt: 1_000,
  version: 0,
});

const verdict = (template: string, purpose?: Purpose, rules: ReviewRules = DEFAULT_REVIEW_RULES) =>
  autoReviewVerdict(tpl(template, purpose), rules);

function refusedFor(result: ReturnType<typeof verdict>, pattern: RegExp): void {
  assert.equal(result.approve, false);
  assert.match(result.errDesc, pattern);
}

test('DEFAULT_REVIEW_RULES bans no words and approves up to 500 characters', () => {
  assert.deepEqual(DEFAULT_REVIEW_RULES, { bannedWords: [], maxLength: 500 });
});

test('autoReviewVerdict approves a clean template', () => {
  assert.deepEqual(verdict('Your order {1} ships on {2}.'), { approve: true });
  assert.deepEqual(verdict('Your code is {1}.', 1), { approve: true });
});

test('rule 1: a brace outside a {N} variable fails variable syntax', () => {
  refusedFor(
    verdict('Hi {name}'),
    /^variable syntax: "\{" at character 4 is not part of a \{N\} variable$/,
  );
  refusedFor(verdict('Hi {1} }'), /^variable syntax: "\}" at character 8/);
  refusedFor(verdict('a { lone brace'), /^variable syntax: "\{" at character 3/);
  refusedFor(verdict('Hi { 1 }'), /^variable syntax:/);
});

test('rule 1: a badly numbered variable fails variable syntax', () => {
  refusedFor(verdict('Hi {0}'), /^variable syntax: variable \{0\} is not valid/);
  refusedFor(verdict('Hi {01}'), /^variable syntax: variable \{01\} is not valid/);
});

test('rule 1: numbering must be contiguous from {1}', () => {
  refusedFor(verdict('Hi {1} {3}'), /^variable syntax: variable \{2\} is missing/);
  refusedFor(verdict('Hi {2}'), /^variable syntax: variable \{1\} is missing/);
  assert.deepEqual(verdict('Hi {2} {1} {2}'), { approve: true });
});

test('rule 2: the template may have at most maxLength characters', () => {
  assert.deepEqual(verdict('码'.repeat(500)), { approve: true });
  refusedFor(verdict('码'.repeat(501)), /^length: the template has 501 characters; at most 500/);
  refusedFor(
    verdict('abcdef', 2, { bannedWords: [], maxLength: 5 }),
    /^length: the template has 6/,
  );
});

test('rule 2: an emoji counts as one character', () => {
  assert.deepEqual(verdict(`${'x'.repeat(499)}👍🏽`), { approve: true });
});

test('rule 3: a banned word fails, matched case-insensitively inside words', () => {
  const rules = { bannedWords: ['Casino', '贷款'], maxLength: 500 };
  refusedFor(
    verdict('Visit our CASINOS today', 2, rules),
    /^banned words: contains the banned word "Casino"$/,
  );
  refusedFor(verdict('低息贷款', 2, rules), /contains the banned word "贷款"/);
  assert.deepEqual(verdict('A clean message', 2, rules), { approve: true });
});

test('rule 3: an empty banned word matches nothing', () => {
  assert.deepEqual(verdict('A clean message', 2, { bannedWords: ['', ' '], maxLength: 500 }), {
    approve: true,
  });
});

test('rule 4: a verification template must contain a variable', () => {
  refusedFor(verdict('Your code is 1234', 1), /^verification code: .*Purpose 1/);
  assert.deepEqual(verdict('No variables here', 2), { approve: true });
  assert.deepEqual(verdict('No variables here', 3), { approve: true });
});

test('rule 5: the characters ※ ● ★ ￥ are refused', () => {
  for (const c of ['※', '●', '★', '￥']) {
    refusedFor(verdict(`Sale ${c} {1}`), new RegExp(`^refused characters: contains "${c}"`));
  }
  assert.deepEqual(verdict('Price ¥{1}'), { approve: true });
});

test('rules are applied in order: the first failure wins', () => {
  const rules = { bannedWords: ['sale'], maxLength: 20 };
  refusedFor(verdict('★ sale {2} long long long', 1, rules), /^variable syntax:/);
  refusedFor(verdict('★ sale {1} long long long', 1, rules), /^length:/);
  refusedFor(verdict('★ sale no code', 1, rules), /^banned words:/);
  refusedFor(verdict('★ no code', 1, rules), /^verification code:/);
  refusedFor(verdict('★ code {1}', 1, rules), /^refused characters:/);
});
