import type { SmppCredential } from '../../domain/smpp-server/credential.js';

export interface SmppCredentialRow {
  system_id: string;
  account_id: number;
  password_hash: string;
  allowed_networks: string;
  max_binds: number;
  max_tps: number;
  bind_window: number;
  created_at: number;
}

export const SMPP_CREDENTIAL_COLUMNS = `system_id, account_id, password_hash, allowed_networks,
  max_binds, max_tps, bind_window, created_at`;

/** The values of SMPP_CREDENTIAL_COLUMNS, in order. */
export function smppCredentialArgs(c: SmppCredential): unknown[] {
  return [
    c.systemId,
    c.accountId,
    c.passwordHash,
    c.allowedNetworks.join(','),
    c.maxBinds,
    c.maxTps,
    c.window,
    c.createdAt,
  ];
}

/**
 * Replaces a credential only when it is the same account's: another account's system_id is
 * never taken over (the caller learns it was taken from no row changing).
 */
export const UPSERT_SMPP_TAIL = `ON CONFLICT (system_id) DO UPDATE SET
  password_hash = excluded.password_hash, allowed_networks = excluded.allowed_networks,
  max_binds = excluded.max_binds, max_tps = excluded.max_tps, bind_window = excluded.bind_window
  WHERE smpp_credentials.account_id = excluded.account_id`;

export function toSmppCredential(r: SmppCredentialRow): SmppCredential {
  return {
    systemId: r.system_id,
    accountId: r.account_id,
    passwordHash: r.password_hash,
    allowedNetworks: r.allowed_networks === '' ? [] : r.allowed_networks.split(','),
    maxBinds: r.max_binds,
    maxTps: r.max_tps,
    window: r.bind_window,
    createdAt: r.created_at,
  };
}
