import type { TemplateStatus } from '../templates/template.js';

/**
 * An SMS signature (UCloud's 短信签名): the name a recipient sees as the sender. It is reviewed
 * like a template, with the same status values (TemplateStatus: 0 pending … 4 disabled); once
 * approved, its SigContent may be named as the SenderId of the account's sends.
 */
/** What a customer writes of a signature (CreateUSMSSignature and UpdateUSMSSignature). */
export interface SignatureFields {
  sigContent: string;
  /** 0 company, 1 app, 2 website, 3 official account or mini program, 4 trademark, 5 government. */
  sigType: number;
  /** 0 for the account's own use, 1 used on behalf of another (needs a proxy document). */
  sigPurpose: number;
  /** The kind of qualification document, 0 to 5 as SigType. */
  certificateType: number;
  description: string;
  sceneDesc: string;
  international: boolean;
  qualificationId: string;
  /** Media ids (of the media store) of the qualification file and the proxy document; '' if none. */
  fileMediaId: string;
  proxyFileMediaId: string;
}

export interface Signature extends SignatureFields {
  sigId: string;
  accountId: number;
  status: TemplateStatus;
  errDesc: string;
  createdAt: number;
  updatedAt: number;
  /** Bumped by every save, so that a save based on a stale read is refused. */
  version: number;
}
