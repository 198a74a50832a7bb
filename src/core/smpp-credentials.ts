/**
 * Creating and removing SMPP server credentials: one logic for the admin API, the CLI and the
 * credentials the environment seeds (WIREBIRD_SMPP_ESMES).
 */
import { hashPassword, newSmppPassword } from '../crypto/password.js';
import { WirebirdError, invalid } from '../domain/errors.js';
import type { Store } from '../domain/ports.js';
import {
  CREDENTIAL_DEFAULTS,
  checkLimit,
  checkPassword,
  checkSystemId,
  type SmppCredential,
} from '../domain/smpp-server/credential.js';
import { parseCidr } from './networks.js';
import { newKeyRecord, recordFields, type KeyTerms } from '../keys/key-records.js';
import { credentialHash, type KeyRecord } from '../domain/keys/key-record.js';

export interface CredentialRequest {
  systemId: string;
  /** The key record's terms, set when the credential is created (docs/security.md). */
  terms: KeyTerms;
  /** Made up (8 characters) when not given. The rest take their defaults when not given. */
  password?: string | undefined;
  allowedNetworks?: readonly string[] | undefined;
  maxBinds?: number | undefined;
  maxTps?: number | undefined;
  window?: number | undefined;
}

const LIMITS = { maxBinds: 64, maxTps: 100_000, window: 1000 } as const;

/** The credential a request describes, its fields checked, its password hashed. */
async function credentialOf(accountId: number, r: CredentialRequest, now: number) {
  const systemId = checkSystemId(r.systemId);
  const password = r.password === undefined ? newSmppPassword() : checkPassword(r.password);
  const allowedNetworks = (r.allowedNetworks ?? []).map((n) => {
    const cidr = parseCidr(n);
    if (!cidr)
      throw invalid(
        'AllowedNetworks',
        `holds ${JSON.stringify(n)}, which is no CIDR such as 10.0.0.0/8`,
      );
    return cidr;
  });
  const credential: SmppCredential = {
    systemId,
    accountId,
    passwordHash: await hashPassword(password),
    allowedNetworks,
    maxBinds: checkLimit(r.maxBinds ?? CREDENTIAL_DEFAULTS.maxBinds, 'MaxBinds', LIMITS.maxBinds),
    maxTps: checkLimit(r.maxTps ?? CREDENTIAL_DEFAULTS.maxTps, 'MaxTps', LIMITS.maxTps),
    window: checkLimit(r.window ?? CREDENTIAL_DEFAULTS.window, 'Window', LIMITS.window),
    createdAt: now,
  };
  return { credential, password };
}

/**
 * Creates (or, for the account's own system_id, replaces) a credential with its key record;
 * the password is answered this once, the store keeps only its hash. A replaced credential
 * keeps its record: its KeyId, state and scopes; a new Name or ExpireTime is applied to it.
 */
export async function saveCredential(
  store: Store,
  accountId: number,
  request: CredentialRequest,
  now: number,
): Promise<{ credential: SmppCredential; password: string; record: KeyRecord }> {
  const made = await credentialOf(accountId, request, now);
  const { systemId } = made.credential;
  const keyHash = credentialHash('smpp', systemId);
  const before = await store.apiKeyByHash(keyHash);
  const taken = new WirebirdError(
    'StateConflict',
    `SystemId ${systemId} belongs to another account; choose another`,
  );
  // Another account's credential is only "taken": its state and scopes are not this caller's.
  if (before && before.accountId !== accountId) throw taken;
  if (before) checkReplaceable(before, request.terms, systemId);
  await store.ensureAccount(accountId, now);
  const fresh = newKeyRecord(
    { ...request.terms, kind: 'smpp', accountId, keyHash, prefix: systemId },
    now,
  );
  if ((await store.saveSmppCredential(made.credential, fresh)) === 'taken') throw taken;
  if (!before) return { ...made, record: fresh };
  const { name, expiresAt } = request.terms;
  const record = await store.updateApiKey(accountId, before.keyId, { name, expiresAt });
  return { ...made, record: record ?? before };
}

/** A revoked credential stays revoked, and scopes are the record's from its creation on. */
function checkReplaceable(before: KeyRecord, terms: KeyTerms, systemId: string): void {
  if (before.revokedAt !== undefined) {
    throw new WirebirdError(
      'StateConflict',
      `SystemId ${systemId} was revoked (${before.revokedReason}); delete it before using its system_id again, or choose another`,
    );
  }
  const scopes = terms.scopes ?? before.scopes;
  if (scopes.length !== before.scopes.length || scopes.some((s) => !before.scopes.includes(s))) {
    throw new WirebirdError(
      'StateConflict',
      `SystemId ${systemId} has Scopes [${before.scopes.join(', ')}], fixed when it was created; delete it and create it again to change them`,
    );
  }
}

export async function deleteCredential(store: Store, accountId: number, systemId: string) {
  if (!(await store.deleteSmppCredential(accountId, systemId))) {
    throw new WirebirdError(
      'NotFound',
      `SystemId ${systemId} is not a credential of AccountId ${accountId}`,
    );
  }
}

/**
 * A credential as the admin API and the CLI show it, with its key record's lifecycle: never
 * its password or hash.
 */
export function credentialView(
  c: SmppCredential,
  record: KeyRecord | undefined,
  now: number,
): Record<string, unknown> {
  return {
    SystemId: c.systemId,
    AccountId: c.accountId,
    ...recordFields(record, now),
    AllowedNetworks: [...c.allowedNetworks],
    MaxBinds: c.maxBinds,
    MaxTps: c.maxTps,
    Window: c.window,
    CreateTime: Math.floor(c.createdAt / 1000),
  };
}
