import type { TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { validator } from '../../http/validate.js';
import { audit, type AuditFact } from '../../core/audit.js';
import type { ApiDeps } from '../context.js';
import { ok, sendAdminError } from './guard.js';
import { idempotencyKeyOf } from '../idempotency.js';

/**
 * One route of the admin API, as it is served and as docs/openapi.json publishes it: the same
 * schemas validate the request and describe it, so the document cannot drift from the code.
 */
export interface AdminRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify's form: `/admin/accounts/:accountId/keys`. */
  url: string;
  summary: string;
  /** Path parameters, each a string in the URL. */
  params?: Record<string, { description: string; pattern?: string }>;
  query?: TSchema;
  body?: TSchema;
  /** The success answer's fields besides RetCode and Message. */
  answer: TSchema;
  /** 201 Created instead of 200. */
  creates?: boolean;
  /** Takes an Idempotency-Key header: `run` finds it in its input, checked. */
  idempotent?: boolean;
  /** What a success changed, for the audit log (actor `admin`); absent for reads. */
  audit?: (input: AdminInput, answer: Record<string, unknown>) => AuditFact | undefined;
}

export interface AdminInput {
  params: Record<string, string>;
  query: Record<string, unknown>;
  body: Record<string, unknown>;
  /** The Idempotency-Key header of an idempotent route, if the client sent one. */
  idempotencyKey?: string;
}

/**
 * Serves `route`: the query and body are checked against its schemas (a refusal names the
 * field, RetCode 18001/18003), then `run`'s fields are answered with RetCode 0.
 */
export function serveAdmin(
  app: FastifyInstance,
  deps: Pick<ApiDeps, 'store' | 'clock'>,
  route: AdminRoute,
  run: (input: AdminInput, request: FastifyRequest) => Promise<Record<string, unknown>>,
): void {
  const readQuery = route.query ? validator(route.query) : undefined;
  const readBody = route.body ? validator(route.body) : undefined;
  app.route({
    method: route.method,
    url: route.url,
    handler: async (request, reply) => {
      let fields: Record<string, unknown>;
      try {
        const key = route.idempotent ? idempotencyKeyOf(request.headers) : undefined;
        const input = {
          // Fastify types a request's parts unknown. The URL pattern makes the params strings;
          params: (request.params ?? {}) as Record<string, string>,
          // the query was validated by the route's query schema (or is empty);
          query: (readQuery ? readQuery(request.query ?? {}) : {}) as Record<string, unknown>,
          // and the body by its body schema (or is empty). A body sent as JSON null is checked
          // as it is, and refused: it is not "no body".
          body: (readBody
            ? readBody(request.body === undefined ? {} : request.body)
            : {}) as Record<string, unknown>,
          ...(key === undefined ? {} : { idempotencyKey: key }),
        };
        fields = await run(input, request);
        const fact = route.audit?.(input, fields);
        if (fact) await audit(deps, { actor: 'admin' }, fact);
      } catch (err) {
        return sendAdminError(reply, err);
      }
      return reply.code(route.creates ? 201 : 200).send(ok(fields));
    },
  });
}
