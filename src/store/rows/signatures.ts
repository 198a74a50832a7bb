/** Signature rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { Signature } from '../../domain/signatures/signature.js';
import type { TemplateStatus } from '../../domain/templates/template.js';

export interface SignatureRow {
  sig_id: string;
  account_id: number | string;
  sig_content: string;
  sig_type: number;
  sig_purpose: number;
  certificate_type: number;
  description: string;
  scene_desc: string;
  international: number;
  qualification_id: string;
  file_media_id: string;
  proxy_file_media_id: string;
  status: number;
  err_desc: string;
  created_at: number | string;
  updated_at: number | string;
  version: number;
}

export const SIGNATURE_COLUMNS =
  'sig_id, account_id, sig_content, sig_type, sig_purpose, certificate_type, description, scene_desc, international, qualification_id, file_media_id, proxy_file_media_id, status, err_desc, created_at, updated_at, version';

export function signatureToRow(s: Signature): unknown[] {
  return [
    s.sigId,
    s.accountId,
    s.sigContent,
    s.sigType,
    s.sigPurpose,
    s.certificateType,
    s.description,
    s.sceneDesc,
    s.international ? 1 : 0,
    s.qualificationId,
    s.fileMediaId,
    s.proxyFileMediaId,
    s.status,
    s.errDesc,
    s.createdAt,
    s.updatedAt,
    s.version,
  ];
}

export function signatureFromRow(r: SignatureRow): Signature {
  return {
    sigId: r.sig_id,
    accountId: Number(r.account_id),
    sigContent: r.sig_content,
    sigType: r.sig_type,
    sigPurpose: r.sig_purpose,
    certificateType: r.certificate_type,
    description: r.description,
    sceneDesc: r.scene_desc,
    international: r.international === 1,
    qualificationId: r.qualification_id,
    fileMediaId: r.file_media_id,
    proxyFileMediaId: r.proxy_file_media_id,
    status: r.status as TemplateStatus,
    errDesc: r.err_desc,
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    version: r.version,
  };
}

/** The compare-and-set save's SET list and its parameters (the row's id and version last). */
export const SIGNATURE_UPDATABLE = [
  'sig_content',
  'sig_type',
  'sig_purpose',
  'certificate_type',
  'description',
  'scene_desc',
  'international',
  'qualification_id',
  'file_media_id',
  'proxy_file_media_id',
  'status',
  'err_desc',
  'updated_at',
] as const;

export function signatureReplaceArgs(s: Signature): unknown[] {
  const row = signatureToRow(s);
  // signatureToRow's order: id, account, then the updatable columns, then created/updated/version.
  const updatable = [...row.slice(2, 14), s.updatedAt];
  return [...updatable, s.sigId, s.version];
}
