import { PUBLIC_KEY_PARAM } from '../ucloud/dialect.js';
import { EVENT_ID_PATTERN } from '../../domain/events/event.js';

/** How callers prove who they are (docs/api.md, docs/ucloud-sdk.md, docs/configuration.md). */
export const SECURITY_SCHEMES = {
  apiKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'An API key of the account: `Authorization: Bearer <key>`. Keys come from `POST /admin/accounts/{accountId}/keys`, `wirebird keys create` or WIREBIRD_API_KEYS; the gateway keeps their SHA-256 hashes only.',
  },
  adminKey: {
    type: 'http',
    scheme: 'bearer',
    description:
      'The admin key (WIREBIRD_ADMIN_KEY, else the one written to data/admin.key at first start): `Authorization: Bearer <admin key>` on /admin and /metrics.',
  },
  ucloudSignature: {
    type: 'apiKey',
    in: 'query',
    name: PUBLIC_KEY_PARAM,
    description:
      "The UCloud SDKs' dialect (docs/ucloud-sdk.md): the request's parameters (a form body, or JSON) carry `PublicKey` and `Signature`, the SHA-1 hex digest of every other parameter as name and value concatenated in name order, followed by the private key. Answers are always HTTP 200. Key pairs come from `POST /admin/accounts/{accountId}/ucloud-keys`.",
  },
};

/** The headers every webhook POST carries (Standard Webhooks; docs/events.md). */
export const WEBHOOK_HEADERS = [
  {
    name: 'webhook-id',
    in: 'header',
    required: true,
    description: 'The event id (`evt_<n>`): the same on every retry; use it to drop repeats.',
    schema: { type: 'string', pattern: EVENT_ID_PATTERN },
  },
  {
    name: 'webhook-timestamp',
    in: 'header',
    required: true,
    description: 'Unix seconds when this attempt was signed; refuse ones far from now.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
  },
  {
    name: 'webhook-signature',
    in: 'header',
    required: true,
    description:
      'Space-separated `v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>` with the endpoint secret (base64 after `whsec_`); two during a rotation.',
    schema: { type: 'string' },
  },
];
