import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  KEY_SCOPES,
  checkExpiry,
  checkGrace,
  checkKeyName,
  checkScopes,
  type KeySource,
} from '../../domain/keys/key-record.js';
import { ApiKeyView, Obj } from '../answer-schemas.js';
import {
  type KeyTerms,
  apiKeyView,
  createApiKey,
  renameApiKey,
  revokeApiKey,
  rotateApiKey,
} from '../../core/api-keys.js';
import type { ApiDeps } from '../context.js';
import { serveAdmin, type AdminInput, type AdminRoute } from './admin-route.js';
import { accountIdParam } from './guard.js';

const KEYS = '/admin/accounts/:accountId/keys';
const AccountParam = { accountId: { description: 'the account', pattern: '^[0-9]{1,15}$' } };
const KeyParams = { ...AccountParam, keyId: { description: 'the KeyId' } };
const Made = Type.Intersect([
  ApiKeyView,
  Obj({ Key: Type.String({ description: 'shown this once' }) }),
]);

/** What a credential of any kind may be created with: its record's name, scopes and expiry. */
export const KeyTermsFields = {
  Name: Type.Optional(Type.String({ maxLength: 64 })),
  Scopes: Type.Optional(
    Type.Array(Type.String(), {
      maxItems: KEY_SCOPES.length,
      description: `any of ${KEY_SCOPES.join(', ')}; none: every Action`,
    }),
  ),
  ExpireTime: Type.Optional(Type.Integer({ description: 'Unix seconds; absent: never' })),
};
const NewKeyBody = Type.Object(KeyTermsFields);

export const API_KEY_ROUTES = {
  create: {
    audit: (i, a) => ({
      action: 'key.created',
      target: String(a.KeyId),
      accountId: Number(i.params.accountId),
      detail: { Name: a.Name, Scopes: a.Scopes, ExpireTime: a.ExpireTime },
    }),
    method: 'POST',
    url: KEYS,
    summary:
      'Creates an API key for the account (and the account if it is new); the Key is answered once.',
    params: AccountParam,
    body: NewKeyBody,
    answer: Made,
    creates: true,
  },
  list: {
    method: 'GET',
    url: KEYS,
    summary: "The account's keys, revoked and expired ones too (never the keys themselves).",
    params: AccountParam,
    answer: Obj({ AccountId: Type.Integer(), DataSet: Type.Array(ApiKeyView) }),
  },
  rename: {
    audit: (i) => ({
      action: 'key.renamed',
      target: i.params.keyId ?? '',
      accountId: Number(i.params.accountId),
      detail: { Name: i.body.Name },
    }),
    method: 'PUT',
    url: `${KEYS}/:keyId`,
    summary: 'Renames a key.',
    params: KeyParams,
    body: Type.Object({ Name: Type.String({ maxLength: 64 }) }),
    answer: Obj({ Data: ApiKeyView }),
  },
  revoke: {
    audit: (i, a) => ({
      action: 'key.revoked',
      target: i.params.keyId ?? '',
      accountId: Number(i.params.accountId),
      // The revoke answer's Data is an API key view, which carries RevokeReason.
      detail: { Reason: (a.Data as { RevokeReason?: unknown }).RevokeReason },
    }),
    method: 'DELETE',
    url: `${KEYS}/:keyId`,
    summary: 'Revokes a key: refused from the next request on, on every node.',
    params: KeyParams,
    query: Type.Object({ reason: Type.Optional(Type.String({ maxLength: 200 })) }),
    answer: Obj({ Data: ApiKeyView }),
  },
  rotate: {
    audit: (i, a) => ({
      action: 'key.rotated',
      target: i.params.keyId ?? '',
      accountId: Number(i.params.accountId),
      // The rotate answer's Data is the new key's view, which carries KeyId.
      detail: { NewKeyId: (a.Data as { KeyId?: unknown }).KeyId },
    }),
    method: 'POST',
    url: `${KEYS}/:keyId/rotate`,
    summary:
      'Makes a new key with the same name and scopes; the old one works for GraceSeconds more (default 86400).',
    params: KeyParams,
    body: Type.Object({ GraceSeconds: Type.Optional(Type.Integer({ minimum: 0 })) }),
    answer: Obj({ Data: Made, Previous: ApiKeyView }),
    creates: true,
  },
} satisfies Record<string, AdminRoute>;

/** The account's API keys (docs/security.md); the admin API's only way to see or end them. */
export function registerApiKeyAdmin(app: FastifyInstance, deps: ApiDeps): void {
  const { store, clock } = deps;
  const at = (input: AdminInput) => ({
    accountId: accountIdParam(input.params.accountId ?? ''),
    keyId: input.params.keyId ?? '',
  });
  serveAdmin(app, deps, API_KEY_ROUTES.create, async (input) => {
    const { accountId } = at(input);
    // Validated against NewKeyBody by serveAdmin before this runs.
    const body = input.body as Static<typeof NewKeyBody>;
    const { key, record } = await createApiKey(
      store,
      newKeyOf(accountId, body, clock.now()),
      clock.now(),
    );
    return { ...apiKeyView(record, clock.now()), Key: key };
  });
  serveAdmin(app, deps, API_KEY_ROUTES.list, async (input) => {
    const { accountId } = at(input);
    const keys = await store.listApiKeys(accountId);
    return { AccountId: accountId, DataSet: keys.map((k) => apiKeyView(k, clock.now())) };
  });
  serveAdmin(app, deps, API_KEY_ROUTES.rename, async (input) => {
    // The rename body's schema requires Name, a string.
    const name = checkKeyName(input.body.Name as string);
    return { Data: apiKeyView(await renameApiKey(store, at(input), name), clock.now()) };
  });
  serveAdmin(app, deps, API_KEY_ROUTES.revoke, async (input) => {
    // The revoke query's schema declares reason an optional string.
    const reason = (input.query.reason as string | undefined) ?? 'revoked by the admin API';
    const key = await revokeApiKey(store, at(input), clock.now(), reason);
    return { Data: apiKeyView(key, clock.now()) };
  });
  serveAdmin(app, deps, API_KEY_ROUTES.rotate, async (input) => {
    // The rotate body's schema declares GraceSeconds an optional integer.
    const grace = input.body.GraceSeconds as number | undefined;
    const now = clock.now();
    const made = await rotateApiKey(
      store,
      at(input),
      now,
      grace === undefined ? undefined : checkGrace(grace),
    );
    return {
      Data: { ...apiKeyView(made.record, now), Key: made.key },
      Previous: apiKeyView(made.previous, now),
    };
  });
}

/** A new key's fields from a request: checked name, scopes and expiry. */
export function newKeyOf(
  accountId: number,
  body: Static<typeof NewKeyBody>,
  now: number,
): Parameters<typeof createApiKey>[1] {
  return { accountId, ...termsOf(body, now, 'admin') };
}

/** A credential's record terms from a request's Name, Scopes and ExpireTime, checked. */
export function termsOf(body: Static<typeof NewKeyBody>, now: number, source: KeySource): KeyTerms {
  return {
    source,
    ...(body.Name === undefined ? {} : { name: checkKeyName(body.Name) }),
    ...(body.Scopes === undefined ? {} : { scopes: checkScopes(body.Scopes) }),
    ...(body.ExpireTime === undefined ? {} : { expiresAt: checkExpiry(body.ExpireTime, now) }),
  };
}
