import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { openApiDocument, openApiText } from './document.js';
import { DOCS_PATH, OPENAPI_PATH } from '../../http/paths.js';
import { WIREBIRD_LOGO_SVG } from './wirebird-logo.js';

/**
 * GET /api/openapi.json, and the reference page at /docs: Swagger UI, whose files come from the
 * @fastify/swagger-ui package and are served by the gateway itself (no CDN, works offline).
 */
const DOCS_CSP = [
  "default-src 'self'",
  "base-uri 'self'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "style-src 'self' 'unsafe-inline'",
  "script-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'self'",
].join('; ');

export function registerOpenApiRoutes(app: FastifyInstance): void {
  const document = openApiDocument();
  const text = openApiText(document);
  app.get(OPENAPI_PATH, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send(text),
  );
  void app.register(async (scope) => {
    await scope.register(swagger, {
      mode: 'static',
      // @fastify/swagger's OpenAPI type is stricter than JSON; the document is checked by its tests.
      specification: { document: document as never },
    });
    await scope.register(swaggerUi, {
      routePrefix: DOCS_PATH,
      uiConfig: { docExpansion: 'list', deepLinking: true, tryItOutEnabled: false },
      theme: { title: 'Wirebird API reference' },
      logo: {
        type: 'image/svg+xml',
        content: Buffer.from(WIREBIRD_LOGO_SVG),
        href: DOCS_PATH,
        target: '_self',
      },
      staticCSP: true,
      // The package's policy allows https: fonts, styles and an online validator and upgrades
      // requests to https, which breaks a gateway served over plain HTTP: only the gateway's own.
      transformStaticCSP: () => DOCS_CSP,
    });
  });
}
