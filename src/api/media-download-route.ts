/**
 * GET /media/{MediaId}: the bytes of a file in the media store, to the account that owns it —
 * the URL an inbound WhatsApp message's file is handed to the application with (docs/inbound.md),
 * and a way to read back what the account uploaded. Another account's file is not found.
 */
import type { FastifyInstance } from 'fastify';
import { WirebirdError } from '../domain/errors.js';
import { MEDIA_ID_PREFIX } from '../domain/media/media-file.js';
import { sendMediaFile } from '../http/media-file.js';
import { sendError } from './api-route.js';
import { authorised } from '../core/auth.js';
import type { ApiDeps } from './context.js';
import { httpStatusOf } from '../http/http-status.js';

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
