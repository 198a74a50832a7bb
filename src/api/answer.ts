import { RetCode, WirebirdError, type RetCodeValue } from '../domain/errors.js';

/**
 * The HTTP status policy (docs/errors.md): what an Action decides is answered with HTTP 200 and
 * its RetCode; only problems with the request as a whole get a 4xx, and only a fault of ours a 500.
 */
const HTTP_STATUS: Partial<Record<RetCodeValue, number>> = {
  [RetCode.Unauthenticated]: 401,
  [RetCode.PermissionDenied]: 403,
  [RetCode.RateLimited]: 429,
  [RetCode.Internal]: 500,
};

export function httpStatusOf(code: RetCodeValue): number {
  return HTTP_STATUS[code] ?? 200;
}

/** `SendMessage` → `SendMessageResponse`; anything that is not a plausible Action name is not echoed. */
export function responseAction(action: unknown): string {
  return typeof action === 'string' && /^[A-Za-z]{1,64}$/.test(action)
    ? `${action}Response`
    : 'Response';
}

export function successAnswer(
  action: string,
  fields: Record<string, unknown>,
): Record<string, unknown> {
  return { Action: responseAction(action), RetCode: 0, Message: '', ...fields };
}

export function errorAnswer(action: unknown, err: WirebirdError): Record<string, unknown> {
  return {
    Action: responseAction(action),
    RetCode: err.retCode,
    Message: err.message,
    ...(err.details ?? {}),
  };
}

export function internalError(): WirebirdError {
  return new WirebirdError('Internal', 'internal error; the request was logged');
}
