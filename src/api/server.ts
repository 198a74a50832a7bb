import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
} from 'fastify';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { WirebirdError } from '../domain/errors.js';
import { registerAdminRoutes } from './admin/index.js';
import { errorAnswer } from './answer.js';
import { registerApiRoute, sendError } from './api-route.js';
import { AuthGuard } from './auth-guard.js';
import { logRequest } from './request-log.js';
import { registerMediaRoute } from './media-route.js';
import { registerMediaDownload } from './media-download-route.js';
import { registerMetricsRoute } from './metrics-route.js';
import { registerOpenApiRoutes } from './openapi/routes.js';
import type { ApiDeps } from './context.js';
import { UCLOUD_PATHS } from './ucloud/dialect.js';
import { isFormRequest } from './ucloud/form-body.js';
import { answerClientError, limitConnections, serverOptions } from './http-limits.js';
import { fieldsOf } from '../util/unknown-values.js';

/** Failed authentications per address, on every face that takes a credential. */
function authGuardOf(deps: ApiDeps, logger: Logger): AuthGuard {
  return new AuthGuard({
    allowed: deps.config.http.failedAuthPerMinute,
    log: logger,
    observe: deps.metrics.auth,
  });
}

export function buildServer(deps: ApiDeps, logger: Logger): FastifyInstance {
  const app = Fastify({
    // The cast fixes Fastify's logger type parameter to the base logger the routes are typed with.
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: deps.config.bodyLimitBytes,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    ...serverOptions(deps.config.http),
    clientErrorHandler: answerClientError,
  });
  limitConnections(app.server, deps.config.http);
  const guard = authGuardOf(deps, logger);
  guard.register(app);
  // The envelope is JSON only; Fastify would otherwise hand a text/plain body to the handler.
  app.removeContentTypeParser('text/plain');
  app.addHook('onResponse', async (request, reply) => logRequest(deps, request, reply));
  app.setErrorHandler((err: FastifyError, request, reply) => {
    const action = fieldsOf(request.body).Action;
    // Problems with the request as a whole keep Fastify's 4xx (400, 413, 415), but for the UCloud
    // dialect, whose SDKs read the RetCode only from an HTTP 200 answer.
    const status = isFormRequest(request, UCLOUD_PATHS)
      ? 200
      : err.statusCode && err.statusCode < 500
        ? err.statusCode
        : undefined;
    const limit = request.routeOptions.bodyLimit;
    return sendError({ request, reply }, { action, err: fromFastifyError(err, limit), status });
  });
  registerFixedAnswers(app);
  registerApiRoute(app, deps, guard);
  registerOpenApiRoutes(app);
  registerMediaRoute(app, deps);
  registerMediaDownload(app, deps);
  registerAdminRoutes(app, deps);
  registerMetricsRoute(app, deps);
  return app;
}

/** What is answered without the store: no such route, the health check, a GET of /api. */
function registerFixedAnswers(app: FastifyInstance): void {
  app.setNotFoundHandler((request, reply) =>
    reply
      .code(404)
      .send(
        errorAnswer(
          undefined,
          new WirebirdError('NotFound', `no route ${request.method} ${request.url}`),
        ),
      ),
  );
  app.get('/healthz', async () => ({ status: 'ok' }));
  // A browser or a curl without -d asks with GET: say how to call rather than "no route".
  app.get('/api', async (_request, reply) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send(
        errorAnswer(
          undefined,
          new WirebirdError(
            'MalformedRequest',
            'use POST /api with a JSON body naming an Action (docs/api.md); GET is not served here',
          ),
        ),
      ),
  );
}

/** Errors Fastify raises before a handler runs, in the envelope's terms. */
function fromFastifyError(err: FastifyError, bodyLimitBytes: number): unknown {
  if (err instanceof WirebirdError) return err;
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new WirebirdError(
        'MalformedRequest',
        "Content-Type must be application/json (or application/x-www-form-urlencoded, the UCloud SDKs' form)",
      );
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new WirebirdError(
        'LimitExceeded',
        `the request body is larger than the limit of ${bodyLimitBytes} bytes (the gateway's bodyLimitBytes setting, docs/configuration.md): send fewer numbers per request, or raise the setting`,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new WirebirdError('MalformedRequest', 'the request body is empty');
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new WirebirdError('MalformedRequest', 'Content-Length does not match the body');
  }
  if (err instanceof SyntaxError || err.statusCode === 400) {
    // JSON.parse says where it stopped ("… in JSON at position 7"): that is what to fix.
    const where = /at position \d+(?: \(line \d+ column \d+\))?/.exec(err.message)?.[0];
    const what =
      err instanceof SyntaxError ? err.message.replace(/ in JSON at position.*$/, '') : '';
    const detail = where ? `: ${what.toLowerCase()} ${where}` : '';
    return new WirebirdError('MalformedRequest', `the request body is not valid JSON${detail}`);
  }
  return err;
}
