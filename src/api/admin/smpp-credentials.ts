import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { credentialView, deleteCredential, saveCredential } from '../../core/smpp-credentials.js';
import { KeyRecordFields, Obj } from '../answer-schemas.js';
import { recordsOf } from '../../core/api-keys.js';
import { credentialHash } from '../../domain/keys/key-record.js';
import type { SmppCredential } from '../../domain/smpp-server/credential.js';
import { KeyTermsFields, termsOf } from './api-keys.js';
import type { ApiDeps } from '../context.js';
import { serveAdmin, type AdminInput, type AdminRoute } from './admin-route.js';
import { accountIdParam } from './guard.js';

const CredentialBody = Type.Object({
  ...KeyTermsFields,
  SystemId: Type.String({ minLength: 1, maxLength: 64 }),
  Password: Type.Optional(
    Type.String({ minLength: 1, maxLength: 64, description: 'omit to have one made' }),
  ),
  AllowedNetworks: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 })),
  MaxBinds: Type.Optional(Type.Integer()),
  MaxTps: Type.Optional(Type.Integer()),
  Window: Type.Optional(Type.Integer()),
});

const Credential = Obj({
  SystemId: Type.String(),
  AccountId: Type.Integer(),
  ...KeyRecordFields,
  AllowedNetworks: Type.Array(Type.String()),
  MaxBinds: Type.Integer(),
  MaxTps: Type.Integer(),
  Window: Type.Integer(),
  CreateTime: Type.Integer({ minimum: 0, description: 'Unix seconds' }),
});

const PATH = '/admin/accounts/:accountId/smpp-credentials';
const AccountParam = { accountId: { description: 'the account', pattern: '^[0-9]{1,15}$' } };

export const SMPP_CREDENTIAL_ROUTES = {
  save: {
    audit: (i, a) => ({
      action: 'smpp_credential.saved',
      target: String(a.SystemId),
      accountId: Number(i.params.accountId),
      detail: {
        KeyId: a.KeyId,
        Scopes: a.Scopes,
        AllowedNetworks: a.AllowedNetworks,
        MaxBinds: a.MaxBinds,
        MaxTps: a.MaxTps,
        Window: a.Window,
      },
    }),
    method: 'POST',
    url: PATH,
    summary:
      'Creates (or replaces) the system_id/password an ESME binds to the SMPP server with; the password is answered once.',
    params: AccountParam,
    body: CredentialBody,
    answer: Type.Intersect([Credential, Obj({ Password: Type.String() })]),
    creates: true,
  },
  list: {
    method: 'GET',
    url: PATH,
    summary: "The account's SMPP credentials (never their passwords).",
    params: AccountParam,
    answer: Obj({ AccountId: Type.Integer(), DataSet: Type.Array(Credential) }),
  },
  remove: {
    audit: (i) => ({
      action: 'smpp_credential.deleted',
      target: i.params.systemId ?? '',
      accountId: Number(i.params.accountId),
    }),
    method: 'DELETE',
    url: `${PATH}/:systemId`,
    summary:
      'Deletes a credential and its key record (revoking it through the keys routes keeps the record); its binds are ended within a second.',
    params: { ...AccountParam, systemId: { description: 'the system_id' } },
    answer: Obj({ AccountId: Type.Integer() }),
  },
} satisfies Record<string, AdminRoute>;

/** The system_id/password pairs ESMEs bind to the SMPP server with (docs/smpp-server.md). */
export function registerSmppCredentialAdmin(app: FastifyInstance, deps: ApiDeps): void {
  const accountOf = (input: AdminInput) => accountIdParam(input.params.accountId ?? '');
  serveAdmin(app, deps, SMPP_CREDENTIAL_ROUTES.save, async (input) => {
    const accountId = accountOf(input);
    // Validated against CredentialBody by serveAdmin before this runs.
    const body = input.body as Static<typeof CredentialBody>;
    const now = deps.clock.now();
    const { credential, password, record } = await saveCredential(
      deps.store,
      accountId,
      {
        terms: termsOf(body, now, 'admin'),
        systemId: body.SystemId,
        password: body.Password,
        allowedNetworks: body.AllowedNetworks,
        maxBinds: body.MaxBinds,
        maxTps: body.MaxTps,
        window: body.Window,
      },
      now,
    );
    // The password is answered this once: the store keeps only its hash.
    return { ...credentialView(credential, record, now), Password: password };
  });
  serveAdmin(app, deps, SMPP_CREDENTIAL_ROUTES.list, async (input) => {
    const accountId = accountOf(input);
    const list = await deps.store.listSmppCredentials(accountId);
    const records = await recordsOf(deps.store, accountId, 'smpp');
    const now = deps.clock.now();
    const view = (c: SmppCredential) =>
      credentialView(c, records.get(credentialHash('smpp', c.systemId)), now);
    return { AccountId: accountId, DataSet: list.map(view) };
  });
  serveAdmin(app, deps, SMPP_CREDENTIAL_ROUTES.remove, async (input) => {
    const accountId = accountOf(input);
    await deleteCredential(deps.store, accountId, input.params.systemId ?? '');
    return { AccountId: accountId };
  });
}
