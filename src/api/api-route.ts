import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Readable } from 'node:stream';
import { RetCode, WirebirdError } from '../domain/errors.js';
import { errorAnswer, internalError, successAnswer } from './answer.js';
import { httpStatusOf } from '../http/http-status.js';
import type { AuthGuard } from './auth-guard.js';
import { IDEMPOTENCY_HEADER } from './idempotency.js';
import type { ActionOffload, ApiDeps, ApiOutcome, OffloadedRequest } from './context.js';
import { OFFLOADED_ACTIONS } from './accept-threads/protocol.js';
import { utf8Text } from './text-check.js';
import { runEnvelope, type ApiHeaders } from './run-envelope.js';
import {
  PUBLIC_KEY_PARAM,
  UCLOUD_PATHS,
  isSigned,
  isUcloudBody,
  signedBy,
  ucloudCallOf,
  type UcloudCall,
} from './ucloud/dialect.js';
import { FORM_TYPE, FormParams, parseForm } from './ucloud/form-body.js';
import { refuseUnknownParameters } from './ucloud/reading.js';
import { actions } from './actions/index.js';
import { NOT_SUPPORTED } from './actions/not-supported.js';
import { logRequest, noteOutcome } from './request-log.js';
import { answerPayload } from './streamed.js';
import { errorCode, fieldsOf } from '../util/unknown-values.js';

/** The ids an answer gives the client, so that its log line can be found from them. */
function answerIds(answer: Record<string, unknown>): Record<string, unknown> {
  const { ReqUuid, RequestId, SessionNo } = answer;
  return { reqUuid: ReqUuid, requestId: RequestId, sessionNo: SessionNo };
}

/** POST /api: envelope → key → Action → AccountId → the Action's own schema → its handler. */
export function registerApiRoute(app: FastifyInstance, deps: ApiDeps, guard?: AuthGuard): void {
  void app.register(async (scope) => apiRoute(scope, deps, guard));
}

/** Refusals of who is calling that the UCloud dialect answers with HTTP 200, not 401. */
const SIGNATURE_REFUSALS: readonly number[] = [
  RetCode.Unauthenticated,
  RetCode.SignatureMismatch,
  RetCode.UnknownPublicKey,
];

type HandedOver = WeakMap<FastifyRequest, { text: string; action: string }>;
type JsonParser = ReturnType<FastifyInstance['getDefaultJsonParser']>;

function apiRoute(app: FastifyInstance, deps: ApiDeps, guard: AuthGuard | undefined): void {
  const { offload } = deps;
  const handedOver: HandedOver = new WeakMap();
  const parse = registerBodyParsers(app, offload, handedOver);
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const headers = apiHeaders(request);
    const handed = handedOver.get(request);
    if (offload && handed !== undefined) {
      const done = await runOffloaded(offload, { body: handed.text, ...headers }, handed.action);
      if (done) return answer(deps, { request, reply }, done);
      // Not one the threads answer after all: parsed here, where a bad body is refused as usual.
      request.body = await new Promise((resolve, reject) => {
        void parse(request, handed.text, (err, value) => {
          if (err) reject(err);
          else resolve(value);
        });
      });
    }
    if (isUcloudBody(request.body)) {
      const outcome = await settled(runUcloud(deps, request, headers));
      const err = outcome.ok ? undefined : outcome.err;
      if (err instanceof WirebirdError && SIGNATURE_REFUSALS.includes(err.retCode)) {
        await guard?.failure(request, 'api');
      }
      return answer(
        deps,
        { request, reply },
        { action: actionNamed(request.body), outcome, errorStatus: UCLOUD_STATUS },
      );
    }
    const action = actionNamed(request.body);
    const outcome = runEnvelope(request.body, headers, deps, request.log).then(({ name, fields }) =>
      successAnswer(name, fields),
    );
    return answer(deps, { request, reply }, { action, outcome: await settled(outcome) });
  };
  // The UCloud SDKs post to their base_url as it is given: the host's root, or /api.
  for (const path of UCLOUD_PATHS) app.post(path, handler);
}

/**
 * Form bodies (the UCloud dialect) and JSON bodies, read as bytes so that bytes which are not
 * UTF-8 are refused, not replaced. A body the acceptance threads take is not parsed here: they
 * read the text themselves. A signed (UCloud dialect) JSON body is checked here first, so it is
 * parsed here too. Answers the JSON parser, for bodies handed back by the threads.
 */
function registerBodyParsers(
  app: FastifyInstance,
  offload: ActionOffload | undefined,
  handedOver: HandedOver,
): JsonParser {
  const parse = jsonParserWithPosition(app);
  app.addContentTypeParser(FORM_TYPE, { parseAs: 'string' }, (_request, body, done) => {
    try {
      // parseAs: 'string' hands the body over as a string.
      done(null, parseForm(body as string));
    } catch (err) {
      // parseForm throws only WirebirdErrors.
      done(err as Error, undefined);
    }
  });
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, bytes, done) => {
    let text: string;
    try {
      // parseAs: 'buffer' hands the body over as a Buffer.
      text = utf8Text(bytes as Buffer);
    } catch (err) {
      // utf8Text throws only WirebirdErrors.
      done(Object.assign(err as Error, { statusCode: 400 }), undefined);
      return;
    }
    const signed = text.includes(`"${PUBLIC_KEY_PARAM}"`);
    const action = offload && !signed ? offload.actionIn(text) : undefined;
    if (action === undefined) return parse(request, text, done);
    handedOver.set(request, { text, action });
    done(null, undefined);
  });
  return parse;
}

/**
 * Fastify's own JSON parser (it refuses __proto__ and constructor keys), except that a refusal
 * says where JSON.parse stopped ("at position N"): what a person needs to fix the body. Only a
 * refused body is parsed a second time.
 */
function jsonParserWithPosition(app: FastifyInstance): JsonParser {
  const parseSafely = app.getDefaultJsonParser('error', 'error');
  return (request, text, done) =>
    parseSafely(request, text, (err, value) => {
      if (errorCode(err) !== 'FST_ERR_CTP_INVALID_JSON_BODY') {
        done(err, value);
        return;
      }
      try {
        JSON.parse(text);
      } catch (e) {
        // JSON.parse throws only SyntaxErrors.
        done(Object.assign(e as SyntaxError, { statusCode: 400 }), undefined);
        return;
      }
      done(err, value);
    });
}

function runOffloaded(offload: ActionOffload, job: OffloadedRequest, action: string) {
  return offload.run(job).catch((err: unknown) => ({
    // The thread died with the request in hand: a fault of ours, answered as one.
    action,
    outcome: { ok: false as const, err },
  }));
}

/** The Action a body names, for the answer's echo, whatever reading the body gets. */
function actionNamed(body: unknown): unknown {
  if (body instanceof FormParams) return body.params.Action;
  return fieldsOf(body).Action;
}

/**
 * The UCloud dialect: read and authenticated here, then run as the same Action the JSON API
 * runs (on an acceptance thread where the JSON API's would be).
 */
async function runUcloud(
  deps: ApiDeps,
  request: FastifyRequest,
  headers: ApiHeaders,
): Promise<Record<string, unknown>> {
  // Only called once isUcloudBody said the body is in the dialect.
  const call = ucloudCallOf(request.body) as UcloudCall;
  // Unsigned, a dialect request may still carry an API key; with neither, the key pair's
  // parameter is what is missing.
  if (!isSigned(call) && !headers.authorization) throw unsignedForm();
  const signer = isSigned(call) ? await signedBy(call, deps) : undefined;
  const asked = { ...headers, dialect: 'ucloud' as const, signer };
  const action = call.body.Action;
  // An Action not offered is answered as such (RetCode 162), whatever it was sent with.
  const def = typeof action === 'string' ? actions.get(action) : undefined;
  if (def && typeof action === 'string' && !NOT_SUPPORTED.includes(action)) {
    refuseUnknownParameters(action, call.body, def.request);
  }
  if (deps.offload && typeof action === 'string' && OFFLOADED_ACTIONS.has(action)) {
    const job = { body: JSON.stringify(call.body), ...asked };
    const outcome = (await runOffloaded(deps.offload, job, action))?.outcome;
    if (outcome?.ok === true) return outcome.answer;
    if (outcome?.ok === false) throw outcome.err;
  }
  const { name, fields } = await runEnvelope(call.body, asked, deps, request.log);
  return successAnswer(name, fields);
}

/** A form body with no credential: most often a JSON client that forgot its Content-Type. */
function unsignedForm(): WirebirdError {
  return new WirebirdError(
    'MissingParameter',
    `${PUBLIC_KEY_PARAM} is required: a form body is read as the UCloud SDKs' dialect (PublicKey and Signature, docs/ucloud-sdk.md); for the JSON API send Content-Type: application/json and Authorization: Bearer <API key>`,
  );
}

/** UCloud answers every call with HTTP 200 and the RetCode in the body; its SDKs expect that. */
const UCLOUD_STATUS = 200;

function apiHeaders(request: FastifyRequest): ApiHeaders {
  const idem = request.headers[IDEMPOTENCY_HEADER.toLowerCase()];
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
  { request, reply }: Exchange,
  said: { action: unknown; outcome: ApiOutcome; errorStatus?: number },
) {
  const { action, outcome } = said;
  if (!outcome.ok) {
    return sendError({ request, reply }, { action, err: outcome.err, status: said.errorStatus });
  }
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

/** A request and the reply it gets. */
export interface Exchange {
  request: FastifyRequest;
  reply: FastifyReply;
}

/** Answers a refusal: the error's RetCode and Message (an unknown error as Internal, logged). */
export function sendError(
  { request, reply }: Exchange,
  refusal: { action: unknown; err: unknown; status?: number | undefined },
): FastifyReply {
  const { action, err, status } = refusal;
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
