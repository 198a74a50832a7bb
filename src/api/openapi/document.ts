import type { TSchema } from '@sinclair/typebox';
import {
  RET_CODE_MEANINGS,
  RETRYABLE_RET_CODES,
  RetCode,
  type RetCodeName,
} from '../../domain/errors.js';
import { VERSION } from '../../util/version.js';
import { actions } from '../actions/index.js';
import { ADMIN_ROUTES } from '../admin/index.js';
import type { AdminRoute } from '../admin/admin-route.js';
import { ACCOUNT_ID_RULE } from '../envelope.js';
import { EVENT_DATA, eventBody, eventSchemaName } from './event-schemas.js';
import { jsonSchema, namedComponents, type Json } from './json-schema.js';
import { otherPaths } from './other-paths.js';
import { SECURITY_SCHEMES, WEBHOOK_HEADERS } from './security.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json) => ({ 'application/json': { schema } });

/**
 * The document as text: what GET /api/openapi.json answers and docs/openapi.json holds, byte for
 * byte (test/openapi.test.ts compares them).
 */
export function openApiText(document: Json = openApiDocument()): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

/**
 * The OpenAPI 3.1 document of the gateway, built from the schemas the server validates with:
 * every Action of POST /api, the admin API, the media routes, the webhook events and the
 * security schemes. Served at GET /api/openapi.json and committed as docs/openapi.json.
 */
export function openApiDocument(): Json {
  const refs = new Set<string>();
  const schemas: Record<string, Json> = {};
  const actionNames = [...actions.keys()];
  for (const [name, def] of actions) {
    schemas[`${name}Request`] = actionRequest(name, def.request, refs);
    schemas[`${name}Response`] = actionResponse(name, def.answer, refs);
  }
  Object.assign(schemas, envelopeSchemas(actionNames, refs));
  const webhooks = webhookOperations(schemas, refs);
  const paths = { ...otherPaths(refs), ...adminPaths(refs) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Wirebird',
      version: VERSION,
      description:
        'Self-hosted SMS and business-messaging gateway. One `POST /api` endpoint; the `Action` field chooses the operation. Every answer carries `Action`, `RetCode` (0 is success) and `Message`. Guides: docs/api.md, docs/errors.md, docs/events.md.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'this gateway' }],
    tags: [
      { name: 'API', description: 'POST /api: the Actions' },
      { name: 'Media', description: 'Files for business messages' },
      { name: 'Admin', description: "The operator's API; takes the admin key" },
      { name: 'Gateway', description: 'Health, metrics and this document' },
    ],
    paths,
    webhooks,
    components: {
      schemas: { ...schemas, ...namedComponents(refs) },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}

function properties(schema: TSchema, refs: Set<string>): { props: Json; required: string[] } {
  const s = jsonSchema(schema, refs);
  return {
    // JSON Schema of a TypeBox object: properties is an object of schemas,
    props: (s.properties ?? {}) as Json,
    // and required a list of property names.
    required: (s.required ?? []) as string[],
  };
}

function actionRequest(name: string, request: TSchema, refs: Set<string>): Json {
  const own = properties(request, refs);
  const def = actions.get(name);
  return {
    type: 'object',
    title: `${name}Request`,
    description: def?.summary,
    ...(def?.repeatable ? { 'x-repeatable': def.repeatable } : {}),
    // The key scope that allows the Action; absent: only a key without scopes (docs/security.md).
    ...(def?.scope ? { 'x-scope': def.scope } : {}),
    required: ['Action', 'AccountId', ...own.required],
    properties: {
      Action: { type: 'string', const: name },
      AccountId: ref('AccountId'),
      ...own.props,
    },
  };
}

function actionResponse(name: string, answer: TSchema, refs: Set<string>): Json {
  const own = properties(answer, refs);
  return {
    type: 'object',
    title: `${name}Response`,
    required: ['Action', 'RetCode', 'Message', ...own.required],
    properties: {
      Action: { type: 'string', const: `${name}Response` },
      RetCode: { type: 'integer', const: 0 },
      Message: {
        type: 'string',
        description: '"" on success (or a note, such as how many numbers failed)',
      },
      ...own.props,
    },
  };
}

/** The envelope: any request, any answer, an error answer, AccountId and the RetCode table. */
function envelopeSchemas(names: string[], refs: Set<string>): Record<string, Json> {
  refs.add('BatchInfo');
  return {
    AccountId: ACCOUNT_ID_RULE,
    ApiRequest: {
      oneOf: names.map((n) => ref(`${n}Request`)),
      discriminator: {
        propertyName: 'Action',
        mapping: Object.fromEntries(names.map((n) => [n, `#/components/schemas/${n}Request`])),
      },
    },
    ApiResponse: { anyOf: [...names.map((n) => ref(`${n}Response`)), ref('ErrorResponse')] },
    ErrorResponse: {
      type: 'object',
      title: 'ErrorResponse',
      description: 'A refusal: RetCode says which, Message names the field and what to do.',
      required: ['Action', 'RetCode', 'Message'],
      properties: {
        Action: { type: 'string', pattern: '^([A-Za-z]{1,64})?Response$' },
        RetCode: ref('RetCode'),
        Message: { type: 'string', minLength: 1 },
        FailContent: {
          type: 'array',
          items: ref('BatchInfo'),
          description: 'NothingAccepted (18046): every number and why',
        },
      },
    },
    RetCode: retCodes(),
  };
}

function retCodes(): Json {
  // Object.keys widens a const object's keys to string; these are RetCode's own.
  const names = Object.keys(RetCode) as RetCodeName[];
  return {
    type: 'integer',
    title: 'RetCode',
    description: 'What happened; 0 is success. docs/errors.md has the full table.',
    oneOf: names.map((name) => ({
      const: RetCode[name],
      title: name,
      description: RET_CODE_MEANINGS[name],
    })),
    'x-retryable': RETRYABLE_RET_CODES.map((n) => RetCode[n]),
  };
}

function webhookOperations(schemas: Record<string, Json>, refs: Set<string>): Json {
  const out: Json = {};
  for (const [type, { when, data }] of Object.entries(EVENT_DATA)) {
    const name = eventSchemaName(type);
    schemas[name] = jsonSchema(eventBody(type, data), refs);
    out[type] = {
      post: {
        operationId: name,
        summary: when,
        description:
          'Signed as Standard Webhooks do (docs/events.md). Answer 2xx within 10 s; anything else is retried.',
        parameters: WEBHOOK_HEADERS,
        requestBody: { required: true, content: json(ref(name)) },
        responses: { '2XX': { description: 'Received. Any other answer, or none, is retried.' } },
      },
    };
  }
  return out;
}

/** `/admin/accounts/:accountId/keys` → `/admin/accounts/{accountId}/keys` */
const openApiPath = (url: string) => url.replace(/:([A-Za-z]+)/g, '{$1}');

function adminPaths(refs: Set<string>): Json {
  const paths: Record<string, Json> = {};
  for (const [id, route] of Object.entries(ADMIN_ROUTES)) {
    const path = openApiPath(route.url);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: adminOperation(id, route, refs) };
  }
  return paths;
}

/** The header an admin route marked idempotent takes (docs/api.md, docs/accounts.md). */
const IDEMPOTENCY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'a retry with the same key and request within 24 hours answers the first answer and changes nothing again',
  schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
};

function adminOperation(id: string, route: AdminRoute, refs: Set<string>): Json {
  const parameters = [
    ...Object.entries(route.params ?? {}).map(([name, p]) => ({
      name,
      in: 'path',
      required: true,
      description: p.description,
      schema: { type: 'string', ...(p.pattern ? { pattern: p.pattern } : {}) },
    })),
    ...queryParameters(route.query, refs),
    ...(route.idempotent ? [IDEMPOTENCY_PARAMETER] : []),
  ];
  const success = {
    allOf: [
      {
        type: 'object',
        required: ['RetCode', 'Message'],
        properties: { RetCode: { const: 0 }, Message: { type: 'string' } },
      },
      jsonSchema(route.answer, refs),
    ],
  };
  return {
    operationId: id,
    tags: ['Admin'],
    summary: route.summary,
    security: [{ adminKey: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body ? { requestBody: { content: json(jsonSchema(route.body, refs)) } } : {}),
    responses: {
      [route.creates ? '201' : '200']: { description: 'Done', content: json(success) },
      default: {
        description: 'A refusal (4xx, docs/errors.md)',
        content: json(ref('ErrorResponse')),
      },
    },
  };
}

function queryParameters(query: TSchema | undefined, refs: Set<string>): Json[] {
  if (!query) return [];
  const { props, required } = properties(query, refs);
  return Object.entries(props).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.includes(name),
    schema,
  }));
}
