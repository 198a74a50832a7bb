import { createHash } from 'node:crypto';
import { WirebirdError, invalid } from '../../domain/errors.js';
import type { ActionContext } from '../context.js';

/** UCloud's limit on a qualification file (File, ProxyFile, UploadUSMSFile's FileContent). */
export const UPLOAD_MAX_BYTES = 4 * 1024 * 1024;

const DATA_PREFIX = /^([\w.+-]+\/[\w.+-]+);base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Stores a base64 file of the UCloud dialect in the media store and answers its media id. The
 * content may be bare base64 or `<mime type>;base64,<base64>` (UpdateUSMSSignature's form).
 */
export async function storeBase64File(
  ctx: ActionContext,
  file: { field: string; content: string; fileName?: string; mimeType?: string },
): Promise<string> {
  const prefix = DATA_PREFIX.exec(file.content);
  const data = (prefix ? file.content.slice(prefix[0].length) : file.content).replace(/\s+/g, '');
  if (data === '' || !BASE64.test(data) || data.length % 4 !== 0) {
    throw invalid(
      file.field,
      'must be the file in base64 (optionally prefixed "<mime type>;base64,")',
    );
  }
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > UPLOAD_MAX_BYTES) {
    throw new WirebirdError(
      'LimitExceeded',
      `${file.field} is ${bytes.length} bytes; at most ${UPLOAD_MAX_BYTES} (4 MB) are allowed`,
    );
  }
  const mimeType = (prefix?.[1] ?? file.mimeType ?? 'application/octet-stream').toLowerCase();
  const mediaId = ctx.deps.ids.mediaId();
  await ctx.deps.store.insertMedia({
    mediaId,
    accountId: ctx.accountId,
    mimeType,
    fileName: file.fileName ?? file.field,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    createdAt: ctx.deps.clock.now(),
    bytes,
  });
  return mediaId;
}
