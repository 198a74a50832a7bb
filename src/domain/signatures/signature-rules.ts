import { WirebirdError, invalid, missing } from '../errors.js';
import { charCount } from '../templates/char-count.js';
import { TemplateStatus } from '../templates/template.js';
import type { Signature, SignatureFields } from './signature.js';

/** UCloud's limits: 2 to 12 characters; the brackets are added by the carrier, not written. */
export const SignatureLimits = { minContent: 2, maxContent: 12, text: 128 } as const;

function checkContent(sigContent: string): void {
  if (sigContent === '') throw missing('SigContent');
  const n = charCount(sigContent);
  if (n < SignatureLimits.minContent || n > SignatureLimits.maxContent) {
    throw invalid(
      'SigContent',
      `must be ${SignatureLimits.minContent} to ${SignatureLimits.maxContent} characters (it has ${n})`,
    );
  }
  if (/[【】[\]]/.test(sigContent)) {
    throw invalid('SigContent', 'must not contain 【】 or []: they are added when it is sent');
  }
  if (sigContent.trim() !== sigContent) {
    throw invalid('SigContent', 'must not start or end with spaces');
  }
}

function checkRange(field: string, value: number, max: number, meaning: string): void {
  if (!Number.isInteger(value) || value < 0 || value > max) {
    throw invalid(field, `must be an integer from 0 to ${max} (${meaning})`);
  }
}

/** The rules of CreateUSMSSignature and UpdateUSMSSignature on the fields both take. */
export function checkSignatureFields(f: SignatureFields): void {
  checkContent(f.sigContent);
  checkRange('SigType', f.sigType, 5, 'the kind of name: 0 company … 5 government');
  checkRange('SigPurpose', f.sigPurpose, 1, '0 own use, 1 on behalf of another');
  checkRange('CertificateType', f.certificateType, 5, 'the kind of qualification document');
  for (const [field, value] of [
    ['Description', f.description],
    ['SceneDesc', f.sceneDesc],
  ] as const) {
    const n = charCount(value);
    if (n > SignatureLimits.text) {
      throw invalid(field, `must be at most ${SignatureLimits.text} characters (it has ${n})`);
    }
  }
}

/**
 * A signature used on behalf of another (SigPurpose 1) needs the proxy document. Apart from the
 * other rules so that a request can be checked before its files are stored.
 */
export function checkProxyDocument(sigPurpose: number, hasProxyDocument: boolean): void {
  if (sigPurpose === 1 && !hasProxyDocument) {
    throw missing('ProxyFile (a signature used on behalf of another, SigPurpose 1, needs one)');
  }
}

/** CreateUSMSSignature's rules; `hasProxyDocument` so that they hold before files are stored. */
export function checkNewSignature(fields: SignatureFields, hasProxyDocument: boolean): void {
  if (fields.description.trim() === '') throw missing('Description');
  checkSignatureFields(fields);
  checkProxyDocument(fields.sigPurpose, hasProxyDocument);
}

export function newSignature(
  fields: SignatureFields,
  ids: { sigId: string; accountId: number },
  now: number,
): Signature {
  checkNewSignature(fields, fields.proxyFileMediaId !== '');
  return {
    ...fields,
    ...ids,
    status: TemplateStatus.Pending,
    errDesc: '',
    createdAt: now,
    updatedAt: now,
    version: 0,
  };
}

/** An approved signature is final: it changes only by being disabled. */
export function checkUpdatable(current: Signature): void {
  if (current.status === TemplateStatus.Approved) {
    throw new WirebirdError(
      'StateConflict',
      `signature ${current.sigId} is approved and cannot be updated`,
    );
  }
}

/**
 * UpdateUSMSSignature changes a signature that is not approved and sends it back to review
 * (the SDK: "修改未通过审核的短信签名，并重新提交审核"); an approved one is refused.
 */
export function updateSignature(
  current: Signature,
  fields: SignatureFields,
  now: number,
): Signature {
  checkSignatureFields(fields);
  if (current.status === TemplateStatus.Approved) {
    throw new WirebirdError(
      'StateConflict',
      `signature ${current.sigId} is approved and cannot be updated`,
    );
  }
  return {
    ...current,
    ...fields,
    status: TemplateStatus.Pending,
    errDesc: '',
    updatedAt: now,
  };
}
