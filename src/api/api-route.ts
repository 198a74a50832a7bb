import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { WirebirdError } from '../domain/errors.js';
import { actions } from './actions/index.js';
import { errorAnswer, httpStatusOf, internalError, successAnswer } from './answer.js';
import { authenticate } from './auth.js';
import type { ApiDeps } from './context.js';
import { accountIdOf, actionOf, asBody } from './envelope.js';

const outcomes = new WeakMap<FastifyRequest, Record<string, unknown>>();

/** The Action and RetCode a request was answered with, for its log line. */
export function outcomeOf(request: FastifyRequest): Record<string, unknown> | undefined {
  return outcomes.get(request);
}

/** The ids an answer gives the client, so that its log line can be found from them. */
function answerIds(answer: Record<string, unknown>): Record<string, unknown> {
  const { ReqUuid, RequestId, SessionNo } = answer;
  return { reqUuid: ReqUuid, requestId: RequestId, sessionNo: SessionNo };
}

/** Counts an answered /api request; Action names nobody defined are one "unknown" label. */
export function countRequest(deps: ApiDeps, request: FastifyRequest): void {
  const outcome = outcomes.get(request);
  const action = outcome?.action;
  const known = typeof action === 'string' && actions.has(action) ? action : 'unknown';
  deps.metrics.request(known, String(outcome?.retCode ?? 'none'));
}

/** POST /api: envelope → key → Action → AccountId → the Action's own schema → its handler. */
export function registerApiRoute(app: FastifyInstance, deps: ApiDeps): void {
  app.post('/api', async (request, reply) => {
    const action = (request.body as { Action?: unknown } | null)?.Action;
    try {
      const answer = await runAction(request, deps);
      outcomes.set(request, { action, retCode: 0, ...answerIds(answer) });
      return reply.send(answer);
    } catch (err) {
      return sendError(request, reply, action, err);
    }
  });
}

async function runAction(request: FastifyRequest, deps: ApiDeps): Promise<Record<string, unknown>> {
  const body = asBody(request.body);
  const keyAccount = await authenticate(deps.store, request.headers.authorization);
  const name = actionOf(body);
  const def = actions.get(name);
  if (!def)
    throw new WirebirdError(
      'UnknownAction',
      `Action ${JSON.stringify(name).slice(0, 80)} is not supported`,
    );
  const accountId = accountIdOf(body);
  if (accountId !== keyAccount) {
    throw new WirebirdError(
      'PermissionDenied',
      `the API key does not belong to AccountId ${accountId}`,
    );
  }
  const input = def.validate(body);
  const idem = request.headers['idempotency-key'];
  const fields = await def.handle(
    {
      accountId,
      deps,
      log: request.log,
      idempotencyKey: typeof idem === 'string' ? idem : undefined,
    },
    input,
  );
  return successAnswer(name, fields);
}

export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  action: unknown,
  err: unknown,
  status?: number,
): FastifyReply {
  const known = err instanceof WirebirdError ? err : internalError();
  if (known !== err) request.log.error({ err }, 'internal error');
  outcomes.set(request, {
    action,
    retCode: known.retCode,
    refusal: known.message,
    ...answerIds(known.details ?? {}),
  });
  return reply.code(status ?? httpStatusOf(known.retCode)).send(errorAnswer(action, known));
}
