import assert from 'node:assert/strict';
import { test } from 'node:test';
import { WirebirdError } from '../domain/errors.js';
import { checkboxReader, formReader, text } from './forms.js';

const Form = formReader({ phone: text(20), note: text(5) });

/** The refusal's message, which names the field (shown on the console's problem page). */
function refusal(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof WirebirdError, String(err));
    return err.message;
  }
  assert.fail('the form was accepted');
}

test('a form reads its fields trimmed, absent ones as empty, and leaves others unread', () => {
  const read = Form({ phone: '  +8613800000000 ', _csrf: 'token', account: '2' });
  assert.deepEqual(read, { phone: '+8613800000000', note: '' });
  assert.deepEqual(Form(undefined), { phone: '', note: '' });
});

test('a field given twice, too long once trimmed, or not text is refused by its name', () => {
  assert.match(
    refusal(() => Form({ phone: ['1', '2'] })),
    /phone must be given once/,
  );
  assert.match(
    refusal(() => Form({ note: 'sixsix' })),
    /note must be at most 5 characters/,
  );
  assert.equal(Form({ note: ' five ' }).note, 'five');
  assert.match(
    refusal(() => Form({ phone: 42 })),
    /phone must be a string/,
  );
});

test('a group of checkboxes reads as none, one or several values', () => {
  const types = checkboxReader('types');
  assert.deepEqual(types({}), []);
  assert.deepEqual(types({ types: 'message.receipt' }), ['message.receipt']);
  assert.deepEqual(types({ types: ['a', 'b'] }), ['a', 'b']);
  const many = Array.from({ length: 65 }, (_, i) => `t${i}`);
  assert.match(
    refusal(() => types({ types: many })),
    /types must have at most 64 items/,
  );
});
