import { IDEMPOTENCY_HEADER } from '../idempotency.js';
import { MEDIA_FORM } from '../media-form.js';
import { MEDIA_UPLOADED } from '../media-route.js';
import { jsonSchema, type Json } from './json-schema.js';
import { DOCS_PATH, OPENAPI_PATH } from '../../http/paths.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });
const refusal = (description: string) => ({ description, content: json(ref('ErrorResponse')) });

/** POST /api and the routes around it: the media files, health, metrics and this document. */
export function otherPaths(refs: Set<string>): Json {
  return {
    '/api': { post: apiOperation() },
    '/media': { post: mediaUpload(refs) },
    '/media/{MediaId}': { get: mediaDownload() },
    [OPENAPI_PATH]: {
      get: {
        operationId: 'openApiDocument',
        tags: ['Gateway'],
        summary: 'This document.',
        security: [],
        responses: { '200': { description: 'OpenAPI 3.1', content: json({ type: 'object' }) } },
      },
    },
    [DOCS_PATH]: {
      get: {
        operationId: 'referencePage',
        tags: ['Gateway'],
        summary: 'A reference page for this document, served from the gateway (no CDN).',
        security: [],
        responses: { '200': { description: 'HTML', content: { 'text/html': {} } } },
      },
    },
    '/healthz': {
      get: {
        operationId: 'health',
        tags: ['Gateway'],
        summary: 'Answers while the gateway serves.',
        security: [],
        responses: { '200': { description: 'Serving', content: json({ type: 'object' }) } },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics',
        tags: ['Gateway'],
        summary: 'Prometheus metrics (docs/metrics.md).',
        security: [{ adminKey: [] }],
        responses: {
          '200': { description: 'Prometheus text format', content: { 'text/plain': {} } },
          '401': refusal('No admin key'),
        },
      },
    },
  };
}

function apiOperation(): Json {
  return {
    operationId: 'api',
    tags: ['API'],
    summary: 'Runs the Action the body names.',
    description:
      "Every Action is one schema of ApiRequest (discriminated by `Action`); its answer is the schema of the same name ending in Response, or an ErrorResponse. What an Action decides is HTTP 200 with its RetCode; only who is calling (401, 403, 429), a body that cannot be read (400, 413, 415) and a fault of the gateway (500) change the status (docs/errors.md). A form body (or JSON with PublicKey) is the UCloud SDKs' dialect (docs/ucloud-sdk.md).",
    security: [{ apiKey: [] }, { ucloudSignature: [] }],
    parameters: [
      {
        name: IDEMPOTENCY_HEADER,
        in: 'header',
        required: false,
        description:
          'On SendBatchUSMSMessage, SendUSMSMessage and SendMessage: the same key with the same request within 24 hours answers the first answer again and sends nothing twice (1–255 visible ASCII characters).',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    ],
    requestBody: {
      required: true,
      content: {
        ...json(ref('ApiRequest')),
        'application/x-www-form-urlencoded': {
          schema: { type: 'object', additionalProperties: { type: 'string' } },
        },
      },
    },
    responses: {
      '200': {
        description: 'The answer (RetCode 0, or a refusal)',
        content: json(ref('ApiResponse')),
      },
      '400': refusal('The body is not JSON, or not UTF-8'),
      '401': refusal('No API key, or an unknown one (RetCode 170)'),
      '403': refusal("AccountId is not the key's account (RetCode 171)"),
      '413': refusal('The body is larger than bodyLimitBytes (RetCode 18019)'),
      '415': refusal('Not application/json nor a form (RetCode 18000)'),
      '429': refusal('Too many connections from this address (RetCode 153)'),
      '500': refusal('A fault of the gateway (RetCode 18004); retry'),
    },
  };
}

function mediaUpload(refs: Set<string>): Json {
  return {
    operationId: 'uploadMedia',
    tags: ['Media'],
    summary:
      'Uploads a file once; SendMessage names it by the MediaId answered (docs/whatsapp.md).',
    security: [{ apiKey: [] }],
    requestBody: {
      required: true,
      content: { 'multipart/form-data': { schema: jsonSchema(MEDIA_FORM, refs) } },
    },
    responses: {
      '200': {
        description: 'Stored',
        content: json({
          allOf: [
            {
              type: 'object',
              required: ['RetCode', 'Message'],
              properties: { RetCode: { const: 0 }, Message: { type: 'string' } },
            },
            jsonSchema(MEDIA_UPLOADED, refs),
          ],
        }),
      },
      default: refusal('A refusal (RetCode and Message)'),
    },
  };
}

function mediaDownload(): Json {
  return {
    operationId: 'downloadMedia',
    tags: ['Media'],
    summary: "A file of the account's media: an upload, or a file a WhatsApp message carried.",
    security: [{ apiKey: [] }],
    parameters: [
      { name: 'MediaId', in: 'path', required: true, schema: { type: 'string', pattern: '^wbm_' } },
    ],
    responses: {
      '200': {
        description: 'The file, as an attachment',
        content: { 'application/octet-stream': {} },
      },
      '401': refusal('No API key, or an unknown one'),
      '404': refusal("No such file in this account's media (RetCode 18010)"),
    },
  };
}
