import type { FastifyInstance } from 'fastify';
import type { ApiDeps } from '../context.js';
import { createKeyPair, deleteKeyPair } from '../ucloud/key-pair.js';
import { accountIdParam, ok, sendAdminError } from './guard.js';

type KeyRoute = { Params: { accountId: string; publicKey?: string } };

/** The UCloud dialect's key pairs of an account (docs/ucloud-sdk.md). */
export function registerUcloudKeyAdmin(app: FastifyInstance, deps: ApiDeps): void {
  const path = '/admin/accounts/:accountId/ucloud-keys';
  app.post<KeyRoute>(path, async (request, reply) => {
    try {
      const accountId = accountIdParam(request.params.accountId);
      const pair = await createKeyPair(deps.store, deps.box, accountId, deps.clock.now());
      // The private key is answered this once: the store keeps it sealed and never shows it.
      return reply
        .code(201)
        .send(ok({ AccountId: accountId, PublicKey: pair.publicKey, PrivateKey: pair.privateKey }));
    } catch (err) {
      return sendAdminError(reply, err);
    }
  });
  app.get<KeyRoute>(path, async (request, reply) => {
    try {
      const accountId = accountIdParam(request.params.accountId);
      const keys = await deps.store.listUcloudKeys(accountId);
      const DataSet = keys.map((k) => ({
        PublicKey: k.publicKey,
        CreateTime: Math.floor(k.createdAt / 1000),
      }));
      return ok({ AccountId: accountId, DataSet });
    } catch (err) {
      return sendAdminError(reply, err);
    }
  });
  app.delete<KeyRoute>(`${path}/:publicKey`, async (request, reply) => {
    try {
      const accountId = accountIdParam(request.params.accountId);
      await deleteKeyPair(deps.store, accountId, request.params.publicKey ?? '');
      return ok({ AccountId: accountId });
    } catch (err) {
      return sendAdminError(reply, err);
    }
  });
}
