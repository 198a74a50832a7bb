/**
 * POST /media: a client uploads a file once and names it in SendMessage by the id answered here;
 * the WhatsApp channel uploads it to Meta when a message first needs it there.
 */
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { createHash } from 'node:crypto';
import { RetCode, WirebirdError } from '../domain/errors.js';
import { MEDIA_ID_PREFIX, type MediaFile } from '../domain/media/media-file.js';
import { HEAD_BYTES, checkUpload } from '../domain/media/upload-rules.js';
import { sendError } from './api-route.js';
import { Obj } from './answer-schemas.js';
import { httpStatusOf } from '../http/http-status.js';
import { authorised } from '../core/auth.js';
import type { ApiDeps } from './context.js';
import {
  FORM_LIMITS,
  NOT_MULTIPART,
  fromMultipartError,
  readMediaForm,
  type MediaForm,
} from './media-form.js';

// Refusals follow /api's status policy (docs/errors.md): what is wrong with one field is HTTP 200
// with its RetCode; what is wrong with the request as a whole keeps a 4xx.
function statusOf(err: WirebirdError): number {
  if (err.message === NOT_MULTIPART) return 415;
  // The request as a whole (not a form, too large) is refused as REST would; a field, with 200.
  const whole = err.retCode === RetCode.MalformedRequest || err.retCode === RetCode.LimitExceeded;
  return httpStatusOf(err.retCode, whole ? 'rest' : 'action');
}

function storedFile(form: MediaForm, accountId: number, deps: ApiDeps): MediaFile {
  const { bytes, mimeType, mimeField, fileName } = form;
  checkUpload({ mimeType, mimeField, size: bytes.length, head: bytes.subarray(0, HEAD_BYTES) });
  return {
    mediaId: deps.ids.mediaId(),
    accountId,
    mimeType,
    fileName,
    size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    createdAt: deps.clock.now(),
    bytes,
  };
}

/** POST /media's answer besides RetCode and Message: name MediaId in SendMessage. */
export const MEDIA_UPLOADED = Obj({
  MediaId: Type.String({ pattern: `^${MEDIA_ID_PREFIX}` }),
  MimeType: Type.String(),
  FileName: Type.String(),
  FileSize: Type.Integer({ minimum: 1 }),
  Sha256: Type.String({ pattern: '^[0-9a-f]{64}$' }),
});

export function registerMediaRoute(app: FastifyInstance, deps: ApiDeps): void {
  app.register(async (scope) => {
    const accounts = new WeakMap<FastifyRequest, number>();
    // The key is checked before the body is read: an unknown caller's file is never parsed.
    scope.addHook('onRequest', async (request) => {
      accounts.set(request, await authorised(deps, request.headers.authorization, 'send'));
    });
    // Multipart is the one body this scope reads; JSON, text and the rest are refused as such.
    scope.removeAllContentTypeParsers();
    await scope.register(multipart, { limits: FORM_LIMITS, throwFileSizeLimit: false });
    scope.setErrorHandler((err: FastifyError, request, reply) => {
      const known = err instanceof WirebirdError ? err : fromMultipartError(err);
      const status = known instanceof WirebirdError ? statusOf(known) : undefined;
      return sendError({ request, reply }, { action: undefined, err: known, status });
    });
    scope.post('/media', async (request, reply) => {
      // The preHandler above authenticated the request and stored its account.
      const accountId = accounts.get(request) as number;
      const file = storedFile(await readMediaForm(request), accountId, deps);
      await deps.store.insertMedia(file);
      request.log.info({ accountId, mediaId: file.mediaId, size: file.size }, 'media stored');
      return reply.send({
        RetCode: 0,
        Message: '',
        MediaId: file.mediaId,
        MimeType: file.mimeType,
        FileName: file.fileName,
        FileSize: file.size,
        Sha256: file.sha256,
      });
    });
  });
}
