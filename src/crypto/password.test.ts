import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hashPassword, newSmppPassword, verifyPassword } from './password.js';

describe('password hashes', () => {
  it('verify the password they were made from and nothing else', async () => {
    const hash = await hashPassword('s3cret!');
    assert.match(hash, /^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{43}$/);
    assert.ok(!hash.includes('s3cret'));
    assert.equal(await verifyPassword('s3cret!', hash), true);
    assert.equal(await verifyPassword('s3cret', hash), false);
    assert.equal(await verifyPassword('s3cret!', 'sha256$abc'), false);
    assert.notEqual(await hashPassword('s3cret!'), hash, 'salted');
  });

  it('makes 8-character passwords an SMPP bind can carry', () => {
    const p = newSmppPassword();
    assert.match(p, /^[A-Za-z2-9]{8}$/);
    assert.notEqual(newSmppPassword(), p);
  });
});
