import type { FastifyReply, FastifyRequest } from 'fastify';
import { RetCode, WirebirdError, invalid } from '../../domain/errors.js';
import { errorAnswer } from '../answer.js';
import { isAdminKey } from '../../core/auth.js';
import { httpStatusOf } from '../../http/http-status.js';

/** The admin API answers in the same shape as /api, with REST status codes. */
export function adminGuard(adminKey: string | undefined) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isAdminKey(adminKey, request.headers.authorization)) {
      return reply
        .code(httpStatusOf(RetCode.Unauthenticated, 'rest'))
        .send(
          errorAnswer(
            undefined,
            new WirebirdError(
              'Unauthenticated',
              'Authorization: Bearer <admin key> is required: the admin key is WIREBIRD_ADMIN_KEY if set, else the one in data/admin.key (the data folder of the gateway)',
            ),
          ),
        );
    }
  };
}

export function sendAdminError(reply: FastifyReply, err: unknown): FastifyReply {
  if (!(err instanceof WirebirdError)) throw err;
  return reply.code(httpStatusOf(err.retCode, 'rest')).send(errorAnswer(undefined, err));
}

export function accountIdParam(raw: string): number {
  const n = /^\d{1,15}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw invalid('AccountId', 'must be a positive integer');
  return n;
}

export function ok(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { RetCode: 0, Message: '', ...fields };
}
