import type { FastifyRequest } from 'fastify';
import { WirebirdError } from '../../domain/errors.js';

/** The flat parameters of a form-encoded body, as the UCloud SDKs send them. */
export class FormParams {
  constructor(readonly params: Readonly<Record<string, string>>) {}
}

export const FORM_TYPE = 'application/x-www-form-urlencoded';

/**
 * True for a form-encoded request to a route that reads the UCloud dialect (`paths`), which is
 * answered with HTTP 200 whatever befalls; the console's own forms are not the dialect.
 */
export function isFormRequest(request: FastifyRequest, paths: readonly string[]): boolean {
  const type = request.headers['content-type'];
  const route = request.routeOptions.url;
  return (
    typeof type === 'string' &&
    type.toLowerCase().startsWith(FORM_TYPE) &&
    route !== undefined &&
    paths.includes(route)
  );
}

/** Reads `a=1&b.0=x` into its parameters; a name given twice is refused, not guessed at. */
export function parseForm(text: string): FormParams {
  // curl -d sends this type unless told otherwise: a JSON body read as a form has no Action.
  if (/^\s*[{[]/.test(text)) {
    throw new WirebirdError(
      'MalformedRequest',
      `the body looks like JSON but came as ${FORM_TYPE} (curl's default for -d): send it with the header Content-Type: application/json`,
    );
  }
  // Object.create(null) answers any; a map without a prototype, so no name is inherited.
  const params: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of new URLSearchParams(text)) {
    if (name in params) {
      throw new WirebirdError(
        'MalformedRequest',
        `the parameter ${name.slice(0, 80)} is given twice; each may be given once`,
      );
    }
    if (name === '__proto__' || name.split('.').includes('__proto__')) {
      throw new WirebirdError('MalformedRequest', 'a parameter name may not be __proto__');
    }
    params[name] = value;
  }
  return new FormParams(params);
}
