import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RetCode, WirebirdError } from '../errors.js';
import { braceProblem, parseVariables, renderTemplate } from './variables.js';

test('parseVariables lists distinct variables in order of first appearance', () => {
  assert.deepEqual(parseVariables('{2} then {1}, {2} again, {3}'), {
    variables: [2, 1, 3],
    paramCount: 3,
  });
});

test('parseVariables gives paramCount 0 when there are no variables', () => {
  assert.deepEqual(parseVariables('No variables here'), { variables: [], paramCount: 0 });
});

test('parseVariables takes the highest N as paramCount, even with gaps', () => {
  assert.deepEqual(parseVariables('{1} and {3}'), { variables: [1, 3], paramCount: 3 });
});

test('parseVariables ignores braces that are not {N}', () => {
  assert.deepEqual(parseVariables('{a} { 1 } {0} {01} {1'), { variables: [], paramCount: 0 });
  assert.deepEqual(parseVariables('{{1}}'), { variables: [1], paramCount: 1 });
  assert.deepEqual(parseVariables('{12}'), { variables: [12], paramCount: 12 });
});

test('renderTemplate fills every occurrence of a repeated {1}', () => {
  assert.equal(renderTemplate('Code {1}. Again: {1}', ['4821']), 'Code 4821. Again: 4821');
});

test('renderTemplate is positional: {N} takes params[N-1]', () => {
  assert.equal(renderTemplate('{2}, {1}!', ['world', 'Hello']), 'Hello, world!');
});

test('renderTemplate inserts parameters literally, without expanding them again', () => {
  assert.equal(renderTemplate('A {1} B {2}', ['{2}', '$&']), 'A {2} B $&');
});

test('renderTemplate leaves text braces alone', () => {
  assert.equal(renderTemplate('{a} {1} }', ['x']), '{a} x }');
});

test('renderTemplate refuses a {N} it has no parameter for', () => {
  assert.throws(
    () => renderTemplate('Hi {2}', ['only one']),
    (e: unknown) =>
      e instanceof WirebirdError &&
      e.retCode === RetCode.InvalidParameter &&
      e.message.startsWith('TemplateParams '),
  );
});

test('braceProblem accepts well-formed variables and plain text', () => {
  assert.equal(braceProblem('Hello {1}, code {12}'), undefined);
});

test('braceProblem points at the first stray brace, counted in characters', () => {
  assert.equal(braceProblem('验证码{a}'), '"{" at character 4 is not part of a {N} variable');
  assert.equal(braceProblem('{1} }'), '"}" at character 5 is not part of a {N} variable');
  assert.equal(braceProblem('{1'), '"{" at character 1 is not part of a {N} variable');
});

test('braceProblem names a badly numbered variable', () => {
  assert.match(braceProblem('x {0}') ?? '', /variable \{0\} is not valid/);
  assert.match(braceProblem('x {01}') ?? '', /variable \{01\} is not valid/);
});
