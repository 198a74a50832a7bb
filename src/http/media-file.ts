/**
 * A stored media file as an HTTP download: for GET /media (api/) and the console's inbox, which
 * both hand files out and must do it the one safe way.
 */
import type { FastifyReply } from 'fastify';
import type { MediaFile } from '../domain/media/media-file.js';

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
