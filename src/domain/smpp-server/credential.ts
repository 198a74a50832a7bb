/**
 * The credentials an ESME binds to Wirebird's SMPP server with (docs/smpp-server.md): a system_id
 * and a password per credential, several per account, with limits of their own. The password is
 * only ever held hashed.
 */
import { invalid } from '../errors.js';
import { keyAllows, type KeyRecord, type KeyScope } from '../keys/key-record.js';

export type BindMode = 'transmitter' | 'receiver' | 'transceiver';

/**
 * The scopes a bind needs from its credential's key record: submitting is `send`, taking
 * receipts and replies as deliver_sm is `read`, a transceiver does both.
 */
export const BIND_SCOPES: Record<BindMode, readonly KeyScope[]> = {
  transmitter: ['send'],
  receiver: ['read'],
  transceiver: ['send', 'read'],
};

/** The scopes of `mode` the record lacks; empty when it may bind so. */
export function missingBindScopes(record: Pick<KeyRecord, 'scopes'>, mode: BindMode): KeyScope[] {
  return BIND_SCOPES[mode].filter((scope) => !keyAllows(record, scope));
}

export interface SmppCredential {
  /** Unique across the gateway: a bind names its credential by it. */
  systemId: string;
  accountId: number;
  /** scrypt, in the form crypto/password.ts writes. */
  passwordHash: string;
  /** CIDRs binds may come from; empty: any address. */
  allowedNetworks: readonly string[];
  /** Binds open at once with this system_id, on one node. */
  maxBinds: number;
  /** submit_sm and submit_multi a second, per bind; more are answered ESME_RTHROTTLED. */
  maxTps: number;
  /** deliver_sm sent to the ESME and not yet answered, per bind. */
  window: number;
  createdAt: number;
}

/**
 * SMPP 3.4 (5.2.1): system_id is a C-Octet String of at most 16 octets and password of 9, each
 * with its NUL; so 15 and 8 characters. Visible ASCII only: what every ESME can type and send.
 */
export const SYSTEM_ID_MAX = 15;
export const PASSWORD_MAX = 8;

export const CREDENTIAL_DEFAULTS = { maxBinds: 4, maxTps: 1000, window: 10 } as const;

const VISIBLE = /^[\x21-\x7e]+$/;

export function checkSystemId(value: string, field = 'SystemId'): string {
  if (value.length < 1 || value.length > SYSTEM_ID_MAX || !VISIBLE.test(value)) {
    throw invalid(field, `must be 1 to ${SYSTEM_ID_MAX} visible ASCII characters (SMPP 3.4)`);
  }
  return value;
}

export function checkPassword(value: string, field = 'Password'): string {
  if (value.length < 1 || value.length > PASSWORD_MAX || !VISIBLE.test(value)) {
    throw invalid(field, `must be 1 to ${PASSWORD_MAX} visible ASCII characters (SMPP 3.4)`);
  }
  return value;
}

/** A limit given by the operator, within what makes sense for one bind. */
export function checkLimit(value: number, field: string, max: number): number {
  if (!Number.isInteger(value) || value < 1 || value > max) {
    throw invalid(field, `must be a whole number from 1 to ${max}`);
  }
  return value;
}
