/** Signature rows as both adapters read them (same column names in SQLite and PostgreSQL). */
import type { Signature } from '../../domain/signatures/signature.js';
import type { TemplateStatus } from '../../domain/templates/template.js';

export interface SignatureRow {
  sig_id: string;
  account_id: number;
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
  status: TemplateStatus;
  err_desc: string;
  created_at: number;
  updated_at: number;
  version: number;
}

/** A signature's value per column: toRow and the compare-and-set save both read from it. */
function columnValues(s: Signature): Record<string, unknown> {
  return {
    sig_id: s.sigId,
    account_id: s.accountId,
    sig_content: s.sigContent,
    sig_type: s.sigType,
    sig_purpose: s.sigPurpose,
    certificate_type: s.certificateType,
    description: s.description,
    scene_desc: s.sceneDesc,
    international: s.international ? 1 : 0,
    qualification_id: s.qualificationId,
    file_media_id: s.fileMediaId,
    proxy_file_media_id: s.proxyFileMediaId,
    status: s.status,
    err_desc: s.errDesc,
    created_at: s.createdAt,
    updated_at: s.updatedAt,
    version: s.version,
  };
}

const COLUMN_LIST = [
  'sig_id',
  'account_id',
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
  'created_at',
  'updated_at',
  'version',
] as const;

export const SIGNATURE_COLUMNS = COLUMN_LIST.join(', ');

export function signatureToRow(s: Signature): unknown[] {
  const values = columnValues(s);
  return COLUMN_LIST.map((c) => values[c]);
}

export function signatureFromRow(r: SignatureRow): Signature {
  return {
    sigId: r.sig_id,
    accountId: r.account_id,
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
    status: r.status,
    errDesc: r.err_desc,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    version: r.version,
  };
}

/** What a save may change: everything but the id, the account, the creation and the version. */
export const SIGNATURE_UPDATABLE = COLUMN_LIST.filter(
  (c) => !['sig_id', 'account_id', 'created_at', 'version'].includes(c),
);

/** The compare-and-set save's parameters: the SET values in SIGNATURE_UPDATABLE's order, then id and version. */
export function signatureReplaceArgs(s: Signature): unknown[] {
  const values = columnValues(s);
  return [...SIGNATURE_UPDATABLE.map((c) => values[c]), s.sigId, s.version];
}
