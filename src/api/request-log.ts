import type { FastifyReply, FastifyRequest } from 'fastify';
import { actions } from './actions/index.js';
import type { ApiDeps } from './context.js';
import { textOf } from '../util/unknown-values.js';

const outcomes = new WeakMap<FastifyRequest, Record<string, unknown>>();
const logged = new WeakSet<FastifyRequest>();

/** Keeps the Action, RetCode and answer ids a request was answered with, for its log line. */
export function noteOutcome(request: FastifyRequest, outcome: Record<string, unknown>): void {
  outcomes.set(request, outcome);
}

/** Counts an answered /api request; Action names nobody defined are one "unknown" label. */
function countRequest(deps: ApiDeps, request: FastifyRequest): void {
  const outcome = outcomes.get(request);
  const action = outcome?.action;
  const known = typeof action === 'string' && actions.has(action) ? action : 'unknown';
  deps.metrics.request(known, textOf(outcome?.retCode ?? 'none'));
}

/**
 * One line per request, carrying the Action and RetCode where /api answered one, and the /api
 * request counted: once, whether the answer ended (onResponse) or was cut while it streamed.
 */
export function logRequest(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply): void {
  if (logged.has(request)) return;
  logged.add(request);
  if (request.routeOptions.url === '/api') countRequest(deps, request);
  request.log.info(
    {
      method: request.method,
      url: withoutSecrets(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
      ...outcomes.get(request),
    },
    'request',
  );
}

/** Meta's webhook handshake carries the verify token in the query string: never logged. */
function withoutSecrets(url: string): string {
  return url.startsWith('/webhooks/') ? `${url.split('?')[0] ?? ''}?[query not logged]` : url;
}
