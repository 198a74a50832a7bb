import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import {
  credentialView,
  deleteCredential,
  saveCredential,
} from '../../smpp-server/credentials-service.js';
import type { ApiDeps } from '../context.js';
import { validator } from '../validate.js';
import { accountIdParam, ok, sendAdminError } from './guard.js';

const CredentialBody = Type.Object({
  SystemId: Type.String({ minLength: 1, maxLength: 64 }),
  Password: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  AllowedNetworks: Type.Optional(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 64 })),
  MaxBinds: Type.Optional(Type.Integer()),
  MaxTps: Type.Optional(Type.Integer()),
  Window: Type.Optional(Type.Integer()),
});
const readCredential = validator(CredentialBody);

type CredentialRoute = { Params: { accountId: string; systemId?: string } };

/** The system_id/password pairs ESMEs bind to the SMPP server with (docs/smpp-server.md). */
export function registerSmppCredentialAdmin(app: FastifyInstance, deps: ApiDeps): void {
  const path = '/admin/accounts/:accountId/smpp-credentials';
  app.post<CredentialRoute>(path, async (request, reply) => {
    try {
      const accountId = accountIdParam(request.params.accountId);
      const body = readCredential(request.body ?? {});
      const { credential, password } = await saveCredential(
        deps.store,
        accountId,
        {
          systemId: body.SystemId,
          password: body.Password,
          allowedNetworks: body.AllowedNetworks,
          maxBinds: body.MaxBinds,
          maxTps: body.MaxTps,
          window: body.Window,
        },
        deps.clock.now(),
      );
      // The password is answered this once: the store keeps only its hash.
      return reply.code(201).send(ok({ ...credentialView(credential), Password: password }));
    } catch (err) {
      return sendAdminError(reply, err);
    }
  });
  app.get<CredentialRoute>(path, async (request, reply) => {
    try {
      const accountId = accountIdParam(request.params.accountId);
      const list = await deps.store.listSmppCredentials(accountId);
      return ok({ AccountId: accountId, DataSet: list.map(credentialView) });
    } catch (err) {
      return sendAdminError(reply, err);
    }
  });
  app.delete<CredentialRoute>(`${path}/:systemId`, async (request, reply) => {
    try {
      const accountId = accountIdParam(request.params.accountId);
      await deleteCredential(deps.store, accountId, request.params.systemId ?? '');
      return ok({ AccountId: accountId });
    } catch (err) {
      return sendAdminError(reply, err);
    }
  });
}
