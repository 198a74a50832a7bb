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

export interface CredentialRequest {
  systemId: string;
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
 * Creates (or, for the account's own system_id, replaces) a credential; the password is
 * answered this once, the store keeps only its hash.
 */
export async function saveCredential(
  store: Store,
  accountId: number,
  request: CredentialRequest,
  now: number,
): Promise<{ credential: SmppCredential; password: string }> {
  const made = await credentialOf(accountId, request, now);
  await store.ensureAccount(accountId, now);
  if ((await store.saveSmppCredential(made.credential)) === 'taken') {
    throw new WirebirdError(
      'StateConflict',
      `SystemId ${made.credential.systemId} belongs to another account; choose another`,
    );
  }
  return made;
}

export async function deleteCredential(store: Store, accountId: number, systemId: string) {
  if (!(await store.deleteSmppCredential(accountId, systemId))) {
    throw new WirebirdError(
      'NotFound',
      `SystemId ${systemId} is not a credential of AccountId ${accountId}`,
    );
  }
}

/** A credential as the admin API and the CLI show it: never its password or hash. */
export function credentialView(c: SmppCredential): Record<string, unknown> {
  return {
    SystemId: c.systemId,
    AccountId: c.accountId,
    AllowedNetworks: [...c.allowedNetworks],
    MaxBinds: c.maxBinds,
    MaxTps: c.maxTps,
    Window: c.window,
    CreateTime: Math.floor(c.createdAt / 1000),
  };
}
