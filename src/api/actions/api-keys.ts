import { Type } from '@sinclair/typebox';
import { ApiKeyView, Obj } from '../answer-schemas.js';
import { apiKeyView, revokeApiKey } from '../../core/api-keys.js';
import { defineAction } from '../context.js';

/**
 * Wirebird's own Actions (docs/security.md): an account's key without scopes lists the account's
 * keys and revokes one (a leaked key, or itself); creating keys stays with the operator.
 */
export const listApiKeys = defineAction(
  {
    summary: "The account's API keys, revoked and expired ones too (never the keys themselves).",
    repeatable: 'safe',
    request: Type.Object({}),
    answer: Obj({ Data: Type.Array(ApiKeyView) }),
  },
  async (ctx) => {
    const now = ctx.deps.clock.now();
    const keys = await ctx.deps.store.listApiKeys(ctx.accountId);
    return { Data: keys.map((k) => apiKeyView(k, now)) };
  },
);

export const revokeApiKeyAction = defineAction(
  {
    audit: (input) => ({
      action: 'key.revoked',
      target: input.KeyId,
      detail: { Reason: input.Reason || 'revoked by the account' },
    }),
    summary: "Revokes one of the account's keys: refused from the next request on, on every node.",
    repeatable: 'safe',
    request: Type.Object({
      KeyId: Type.String({ minLength: 1, maxLength: 64 }),
      Reason: Type.Optional(Type.String({ maxLength: 200 })),
    }),
    answer: Obj({ Data: ApiKeyView }),
  },
  async (ctx, input) => {
    const now = ctx.deps.clock.now();
    const at = { accountId: ctx.accountId, keyId: input.KeyId };
    const key = await revokeApiKey(
      ctx.deps.store,
      at,
      now,
      input.Reason || 'revoked by the account',
    );
    return { Data: apiKeyView(key, now) };
  },
);
