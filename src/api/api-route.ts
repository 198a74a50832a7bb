import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { RetCode, WirebirdError } from '../domain/errors.js';
import { errorAnswer, httpStatusOf, internalError, successAnswer } from './answer.js';
import type { ApiDeps, ApiOutcome } from './context.js';
import { runEnvelope, type ApiHeaders } from './run-envelope.js';
import { logRequest, noteOutcome } from './request-log.js';
import { answerPayload } from './streamed.js';

/** The ids an answer gives the client, so that its log line can be found from them. */
function answerIds(answer: Record<string, unknown>): Record<string, unknown> {
  const { ReqUuid, RequestId, SessionNo } = answer;
  return { reqUuid: ReqUuid, requestId: RequestId, sessionNo: SessionNo };
}

/** POST /api: envelope → key → Action → AccountId → the Action's own schema → its handler. */
export function registerApiRoute(app: FastifyInstance, deps: ApiDeps): void {
  void app.register(async (scope) => apiRoute(scope, deps));
}

function apiRoute(app: FastifyInstance, deps: ApiDeps): void {
  const offload = deps.offload;
  const handedOver = new WeakMap<FastifyRequest, { text: string; action: string }>();
  const parse = app.getDefaultJsonParser('error', 'error');
  if (offload) {
    // A body the acceptance threads take is not parsed here: they read the text themselves.
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const action = offload.actionIn(body as string);
      if (action === undefined) parse(request, body as string, done);
      else {
        handedOver.set(request, { text: body as string, action });
        done(null, undefined);
      }
    });
  }
  app.post('/api', async (request, reply) => {
    const headers = apiHeaders(request);
    const handed = handedOver.get(request);
    if (offload && handed !== undefined) {
      const { text } = handed;
      const done = await offload.run({ body: text, ...headers }).catch((err: unknown) => ({
        // The thread died with the request in hand: a fault of ours, answered as one.
        action: handed.action,
        outcome: { ok: false as const, err },
      }));
      if (done) return answer(deps, request, reply, done.action, done.outcome);
      // Not one the threads answer after all: parsed here, where a bad body is refused as usual.
      request.body = await new Promise((resolve, reject) =>
        parse(request, text, (err, value) => (err ? reject(err) : resolve(value))),
      );
    }
    const action = (request.body as { Action?: unknown } | null)?.Action;
    const outcome = runEnvelope(request.body, headers, deps, request.log).then(({ name, fields }) =>
      successAnswer(name, fields),
    );
    return answer(deps, request, reply, action, await settled(outcome));
  });
}

function apiHeaders(request: FastifyRequest): ApiHeaders {
  const idem = request.headers['idempotency-key'];
  return {
    authorization: request.headers.authorization,
    idempotencyKey: typeof idem === 'string' ? idem : undefined,
  };
}

function settled(p: Promise<Record<string, unknown>>): Promise<ApiOutcome> {
  return p.then(
    (answer) => ({ ok: true as const, answer }),
    (err: unknown) => ({ ok: false as const, err }),
  );
}

function answer(
  deps: ApiDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  action: unknown,
  outcome: ApiOutcome,
) {
  if (!outcome.ok) return sendError(request, reply, action, outcome.err);
  noteOutcome(request, { action, retCode: 0, ...answerIds(outcome.answer) });
  const payload = answerPayload(outcome.answer);
  if (!(payload instanceof Readable)) return reply.send(payload);
  payload.once('error', (err: unknown) => {
    // The status line is out: Fastify cuts the connection, and no onResponse follows.
    request.log.error({ err }, 'internal error while the answer was written; answer cut');
    noteOutcome(request, { action, retCode: RetCode.Internal, refusal: 'answer cut' });
    reply.raw.once('close', () => logRequest(deps, request, reply));
  });
  return reply.type('application/json; charset=utf-8').send(payload);
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
  noteOutcome(request, {
    action,
    retCode: known.retCode,
    refusal: known.message,
    ...answerIds(known.details ?? {}),
  });
  return reply.code(status ?? httpStatusOf(known.retCode)).send(errorAnswer(action, known));
}
