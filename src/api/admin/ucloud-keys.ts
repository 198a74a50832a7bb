import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { KeyRecordFields, Obj } from '../answer-schemas.js';
import { recordFields, recordsOf } from '../../core/api-keys.js';
import { credentialHash } from '../../domain/keys/key-record.js';
import { KeyTermsFields, termsOf } from './api-keys.js';

const NewTerms = Type.Object(KeyTermsFields);
import type { ApiDeps } from '../context.js';
import { createKeyPair, deleteKeyPair } from '../../core/ucloud-key-pairs.js';
import { serveAdmin, type AdminInput, type AdminRoute } from './admin-route.js';
import { accountIdParam } from './guard.js';

const PATH = '/admin/accounts/:accountId/ucloud-keys';
const AccountParam = { accountId: { description: 'the account', pattern: '^[0-9]{1,15}$' } };

export const UCLOUD_KEY_ROUTES = {
  create: {
    audit: (i, a) => ({
      action: 'ucloud_key.created',
      target: String(a.PublicKey),
      accountId: Number(i.params.accountId),
    }),
    method: 'POST',
    url: PATH,
    summary: 'Creates a UCloud key pair for the SDK dialect; the PrivateKey is answered once.',
    params: AccountParam,
    body: NewTerms,
    answer: Obj({
      AccountId: Type.Integer(),
      PublicKey: Type.String(),
      PrivateKey: Type.String(),
      ...KeyRecordFields,
    }),
    creates: true,
  },
  list: {
    method: 'GET',
    url: PATH,
    summary: "The account's UCloud public keys (never the private ones).",
    params: AccountParam,
    answer: Obj({
      AccountId: Type.Integer(),
      DataSet: Type.Array(
        Obj({ PublicKey: Type.String(), CreateTime: Type.Integer(), ...KeyRecordFields }),
      ),
    }),
  },
  remove: {
    audit: (i) => ({
      action: 'ucloud_key.deleted',
      target: i.params.publicKey ?? '',
      accountId: Number(i.params.accountId),
    }),
    method: 'DELETE',
    url: `${PATH}/:publicKey`,
    summary:
      'Deletes a key pair and its key record (revoking it through the keys routes keeps the record): requests signed with it are refused from then on.',
    params: { ...AccountParam, publicKey: { description: 'the PublicKey' } },
    answer: Obj({ AccountId: Type.Integer() }),
  },
} satisfies Record<string, AdminRoute>;

/** The UCloud dialect's key pairs of an account (docs/ucloud-sdk.md). */
export function registerUcloudKeyAdmin(app: FastifyInstance, deps: ApiDeps): void {
  const accountOf = (input: AdminInput) => accountIdParam(input.params.accountId ?? '');
  serveAdmin(app, deps, UCLOUD_KEY_ROUTES.create, async (input) => {
    const accountId = accountOf(input);
    const now = deps.clock.now();
    const terms = termsOf(input.body, now, 'admin');
    const pair = await createKeyPair(deps.store, deps.box, { accountId, terms }, now);
    // The private key is answered this once: the store keeps it sealed and never shows it.
    return {
      AccountId: accountId,
      PublicKey: pair.publicKey,
      PrivateKey: pair.privateKey,
      ...recordFields(pair.record, now),
    };
  });
  serveAdmin(app, deps, UCLOUD_KEY_ROUTES.list, async (input) => {
    const accountId = accountOf(input);
    const keys = await deps.store.listUcloudKeys(accountId);
    const records = await recordsOf(deps.store, accountId, 'ucloud');
    const now = deps.clock.now();
    const DataSet = keys.map((k) => ({
      PublicKey: k.publicKey,
      CreateTime: Math.floor(k.createdAt / 1000),
      ...recordFields(records.get(credentialHash('ucloud', k.publicKey)), now),
    }));
    return { AccountId: accountId, DataSet };
  });
  serveAdmin(app, deps, UCLOUD_KEY_ROUTES.remove, async (input) => {
    const accountId = accountOf(input);
    await deleteKeyPair(deps.store, accountId, input.params.publicKey ?? '');
    return { AccountId: accountId };
  });
}
