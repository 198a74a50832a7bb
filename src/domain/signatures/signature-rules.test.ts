import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RetCode, WirebirdError } from '../errors.js';
import { TemplateStatus } from '../templates/template.js';
import { newSignature, updateSignature } from './signature-rules.js';
import { reviewSignature, signatureVerdict } from './signature-review.js';
import type { SignatureFields } from './signature.js';

const fields = (over: Partial<SignatureFields> = {}): SignatureFields => ({
  sigContent: 'Wirebird',
  sigType: 0,
  sigPurpose: 0,
  certificateType: 0,
  description: 'our company',
  sceneDesc: '',
  international: false,
  qualificationId: '',
  fileMediaId: '',
  proxyFileMediaId: '',
  ...over,
});
const ids = { sigId: 'USA1', accountId: 7 };

function refusedWith(fn: () => unknown, code: number, message: RegExp) {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof WirebirdError);
    assert.equal(e.retCode, code, e.message);
    assert.match(e.message, message);
    return true;
  });
}

test('a new signature is pending, with no reason', () => {
  const s = newSignature(fields(), ids, 5);
  assert.equal(s.status, TemplateStatus.Pending);
  assert.equal(s.errDesc, '');
  assert.equal(s.createdAt, 5);
  assert.equal(s.version, 0);
});

test('SigContent is 2 to 12 characters, counted as a reader sees them, without brackets', () => {
  newSignature(fields({ sigContent: '优刻' }), ids, 0);
  newSignature(fields({ sigContent: '一二三四五六七八九十一二' }), ids, 0);
  refusedWith(
    () => newSignature(fields({ sigContent: 'A' }), ids, 0),
    RetCode.InvalidParameter,
    /^SigContent must be 2 to 12/,
  );
  refusedWith(
    () => newSignature(fields({ sigContent: 'x'.repeat(13) }), ids, 0),
    RetCode.InvalidParameter,
    /it has 13/,
  );
  refusedWith(
    () => newSignature(fields({ sigContent: '【Acme】' }), ids, 0),
    RetCode.InvalidParameter,
    /【】/,
  );
  refusedWith(
    () => newSignature(fields({ sigContent: '' }), ids, 0),
    RetCode.MissingParameter,
    /^SigContent/,
  );
});

test('types are in range, a proxy signature needs its document, Description is required', () => {
  refusedWith(
    () => newSignature(fields({ sigType: 6 }), ids, 0),
    RetCode.InvalidParameter,
    /^SigType/,
  );
  refusedWith(
    () => newSignature(fields({ sigPurpose: 2 }), ids, 0),
    RetCode.InvalidParameter,
    /^SigPurpose/,
  );
  refusedWith(
    () => newSignature(fields({ certificateType: -1 }), ids, 0),
    RetCode.InvalidParameter,
    /^CertificateType/,
  );
  refusedWith(
    () => newSignature(fields({ sigPurpose: 1 }), ids, 0),
    RetCode.MissingParameter,
    /^ProxyFile/,
  );
  newSignature(fields({ sigPurpose: 1, proxyFileMediaId: 'wbm_x' }), ids, 0);
  refusedWith(
    () => newSignature(fields({ description: ' ' }), ids, 0),
    RetCode.MissingParameter,
    /^Description/,
  );
});

test('an update sends a signature back to review; an approved one is refused', () => {
  const failed = {
    ...newSignature(fields(), ids, 0),
    status: TemplateStatus.FailedReview,
    errDesc: 'no',
  };
  const next = updateSignature(failed, fields({ sigContent: 'Wirebird2' }), 9);
  assert.equal(next.status, TemplateStatus.Pending);
  assert.equal(next.errDesc, '');
  assert.equal(next.sigContent, 'Wirebird2');
  const approved = { ...failed, status: TemplateStatus.Approved };
  refusedWith(() => updateSignature(approved, fields(), 9), RetCode.StateConflict, /is approved/);
});

test('review moves and the verdict: banned words and refused characters fail it', () => {
  const s = newSignature(fields({ sigContent: 'Acme★' }), ids, 0);
  const verdict = signatureVerdict(s, { bannedWords: [], maxLength: 500 });
  assert.deepEqual(verdict, { approve: false, errDesc: 'refused characters: contains "★"' });
  const banned = signatureVerdict(newSignature(fields({ sigContent: 'FreeCash' }), ids, 0), {
    bannedWords: ['cash'],
    maxLength: 500,
  });
  assert.equal(banned.approve, false);
  assert.equal(
    signatureVerdict(newSignature(fields(), ids, 0), { bannedWords: ['cash'], maxLength: 500 })
      .approve,
    true,
  );
  const approved = reviewSignature(s, 'approve', 3);
  assert.equal(approved.status, TemplateStatus.Approved);
  refusedWith(
    () => reviewSignature(approved, 'approve', 4),
    RetCode.StateConflict,
    /^signature USA1 is approved/,
  );
});
