import assert from 'node:assert/strict';
import { test } from 'node:test';
import { secretBox } from '../../crypto/secret-box.js';
import { signatureMatches, ucloudSignature } from './signature.js';

// Each expected value was computed by the UCloud Python SDK in shared/ (ucloud.core.auth), not
// re-derived here: two from its own doctests, one over a SendBatchUSMSMessage it encoded.
const TASK =
  'W3siVGVtcGxhdGVJZCI6ICJVVEExIiwgIlNpZ0NvbnRlbnQiOiAiQWNtZSIsICJUYXJnZXQiOiBbeyJQaG9uZSI6ICIrODYxMzgwMDAwMDAxMyIsICJUZW1wbGF0ZVBhcmFtcyI6IFsieCJdfV19XQ==';

test("the signature is the SDK's verify_ac: doctest values", () => {
  assert.equal(
    ucloudSignature({ foo: 'bar' }, 'my_private_key'),
    '634edc1bb957c0d65e5ab5494cf3b7784fbc87af',
  );
  assert.equal(
    ucloudSignature({ foo: 'bar', PublicKey: 'my_public_key' }, 'my_private_key'),
    'd4411ab30953fb0bbcb1e7313081f05e4e91a394',
  );
});

test('the signature of a SendBatchUSMSMessage the SDK encoded and signed', () => {
  const params = {
    Action: 'SendBatchUSMSMessage',
    ProjectId: 'org-1',
    Region: 'cn-bj2',
    TaskContent: TASK,
    PublicKey: 'wbpk_fixture',
  };
  const sdk = '65d39f75dafd5087d1ce0e64561ba8603663cc09';
  assert.equal(ucloudSignature(params, 'fixture-private-key-0123456789'), sdk);
  const signed = { ...params, Signature: sdk };
  assert.equal(signatureMatches(signed, 'fixture-private-key-0123456789', sdk), true);
  assert.equal(signatureMatches(signed, 'fixture-private-key-0123456789', sdk.toUpperCase()), true);
  assert.equal(signatureMatches(signed, 'another-private-key-0123456789', sdk), false);
  assert.equal(
    signatureMatches({ ...signed, Region: 'cn-sh2' }, 'fixture-private-key-0123456789', sdk),
    false,
  );
  assert.equal(signatureMatches(signed, 'fixture-private-key-0123456789', 'short'), false);
});

test('a sealed secret opens under the same gateway secret only, and never reads as itself', () => {
  const box = secretBox('gateway-secret-0123456789');
  const sealed = box.seal('private-key-value');
  assert.ok(!sealed.includes('private-key-value'));
  assert.notEqual(box.seal('private-key-value'), sealed, 'a fresh IV every time');
  assert.equal(box.open(sealed), 'private-key-value');
  assert.equal(secretBox('another-secret-0123456789').open(sealed), undefined);
  const [v, iv, tag, data] = sealed.split('.');
  const flipped = `${v}.${iv}.${tag}.${(data as string).replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`;
  assert.equal(box.open(flipped), undefined, 'a tampered ciphertext fails its tag');
  assert.equal(box.open('not sealed'), undefined);
});
