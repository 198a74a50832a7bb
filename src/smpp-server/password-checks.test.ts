import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PasswordChecks, type Lane } from './password-checks.js';

/** A verify the test settles by hand: each call waits until `finish` answers it. */
function handVerify() {
  const calls: { password: string; answer: (ok: boolean) => void }[] = [];
  const verify = (password: string) =>
    new Promise<boolean>((answer) => calls.push({ password, answer }));
  /** Settles the oldest call: right when its password is `right`. */
  const finish = async () => {
    const c = calls.shift();
    assert.ok(c, 'a check is running');
    c.answer(c.password === 'right');
    // Let the queue start the next one.
    await new Promise((r) => setImmediate(r));
  };
  return { calls, verify, finish };
}

function checks(v: ReturnType<typeof handVerify>, now = () => 0) {
  return new PasswordChecks({
    concurrency: 1,
    capacity: 2,
    rememberMs: 1000,
    now,
    verify: v.verify,
  });
}

const check = (lane: Lane, password = 'wrong', systemId = 'esme') => ({
  systemId,
  password,
  hash: 'scrypt$stored',
  lane,
});

describe('password checks of binds', () => {
  it('runs a few at once, queues a bounded number, and refuses the rest at once', async () => {
    const v = handVerify();
    const c = checks(v);
    const running = c.check(check('other'));
    const queued = [c.check(check('other')), c.check(check('other'))];
    assert.equal(await c.check(check('other')), 'busy');
    assert.equal(c.waiting, 2);
    await v.finish();
    await v.finish();
    await v.finish();
    assert.deepEqual(await Promise.all([running, ...queued]), ['mismatch', 'mismatch', 'mismatch']);
  });

  it('starts the best lane first; a better lane takes the place of the newest worse one', async () => {
    const v = handVerify();
    const c = checks(v);
    const order: string[] = [];
    const track = (lane: Lane, password: string) =>
      c.check(check(lane, password)).then((r) => order.push(`${password}:${r}`));
    void track('other', 'o1'); // runs
    const o2 = track('other', 'o2');
    const o3 = track('other', 'o3');
    const known = track('known', 'k1'); // the queue is full: o3 is refused
    const clean = track('clean', 'c1'); // full again: o2 is refused
    await Promise.all([o3, o2]);
    assert.deepEqual(order, ['o3:busy', 'o2:busy']);
    while (v.calls.length > 0) await v.finish();
    await Promise.all([known, clean]);
    assert.deepEqual(v.calls, []);
    assert.deepEqual(order.slice(2), ['o1:mismatch', 'k1:mismatch', 'c1:mismatch']);
  });

  it('remembers a right password for a while, and only that password with that hash', async () => {
    const v = handVerify();
    let now = 0;
    const c = checks(v, () => now);
    const first = c.check(check('clean', 'right'));
    await v.finish();
    assert.equal(await first, 'match');
    assert.equal(await c.check(check('clean', 'right')), 'match', 'no scrypt');
    assert.equal(v.calls.length, 0);
    const wrong = c.check(check('clean', 'guess'));
    assert.equal(v.calls.length, 1, 'another password is checked');
    await v.finish();
    assert.equal(await wrong, 'mismatch');
    const changed = c.check({ ...check('clean', 'right'), hash: 'scrypt$new' });
    assert.equal(v.calls.length, 1, 'a changed stored hash is checked again');
    await v.finish();
    await changed;
    now = 1000;
    void c.check({ ...check('clean', 'right'), hash: 'scrypt$new' });
    assert.equal(v.calls.length, 1, 'forgotten after rememberMs');
  });

  it('drops a waiting check whose bind no longer wants it, without checking it', async () => {
    const v = handVerify();
    const c = checks(v);
    const running = c.check(check('other'));
    const gone = c.check({ ...check('other'), wanted: () => false });
    await v.finish();
    assert.equal(await gone, 'dropped');
    assert.equal(await running, 'mismatch');
    assert.equal(v.calls.length, 0);
  });
});
