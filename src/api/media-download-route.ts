/**
 * GET /media/{MediaId}: the bytes of a file in the media store, to the account that owns it —
 * the URL an inbound WhatsApp message's file is handed to the application with (docs/inbound.md),
 * and a way to read back what the account uploaded. Another account's file is not found.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { WirebirdError } from '../domain/errors.js';
import { MEDIA_ID_PREFIX, type MediaFile } from '../domain/media/media-file.js';
import { sendError } from './api-route.js';
import { authorised } from './auth.js';
import type { ApiDeps } from './context.js';
import { httpStatusOf } from './http-status.js';

/** `attachment; filename*=UTF-8''…`: any name, written so no browser reads it as markup. */
function disposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

/** The file as a download: never shown inline, never sniffed as another type (the console too). */
export function sendMediaFile(reply: FastifyReply, file: MediaFile): FastifyReply {
  return reply
    .header('content-type', file.mimeType)
    .header('content-disposition', disposition(file.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, max-age=86400, immutable')
    .header('etag', `"${file.sha256}"`)
    .send(Buffer.from(file.bytes));
}

export function registerMediaDownload(app: FastifyInstance, deps: ApiDeps): void {
  app.get<{ Params: { mediaId: string } }>('/media/:mediaId', async (request, reply) => {
    let file: Awaited<ReturnType<ApiDeps['store']['getMediaFile']>>;
    try {
      const accountId = await authorised(deps, request.headers.authorization, 'read');
      const { mediaId } = request.params;
      file = mediaId.startsWith(MEDIA_ID_PREFIX)
        ? await deps.store.getMediaFile(accountId, mediaId)
        : undefined;
      if (!file) {
        throw new WirebirdError('NotFound', `no file ${mediaId} in this account's media`);
      }
    } catch (err) {
      // A download is a REST read: a missing file is a 404, not a 200 with a RetCode.
      const status = err instanceof WirebirdError ? httpStatusOf(err.retCode, 'rest') : undefined;
      return sendError({ request, reply }, { action: undefined, err, status });
    }
    return sendMediaFile(reply, file);
  });
}
