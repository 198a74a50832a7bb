import { WirebirdError } from '../domain/errors.js';

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
