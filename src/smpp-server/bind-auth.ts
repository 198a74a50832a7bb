/**
 * Who may bind: the credential named by system_id, its password (scrypt, so checked off the
 * hot path and a few at a time), its key record (active, with the scopes the bind mode needs),
 * the networks it may come from and how many binds it may hold.
 * Failed binds are counted per source address; past the limit the address is refused without a
 * check for a while, so guessing a short SMPP password costs the guesser, not the gateway.
 */
import { verifyPassword } from '../crypto/password.js';
import { credentialHash, keyState, type KeyRecord } from '../domain/keys/key-record.js';
import type { ApiKeyStore, SmppCredentialStore } from '../domain/ports.js';
import {
  missingBindScopes,
  type BindMode,
  type SmppCredential,
} from '../domain/smpp-server/credential.js';
import { COMMAND_STATUS as STATUS } from '../domain/smpp/tables.js';
import { allowedBy } from '../core/networks.js';
import { FailedAttempts } from '../rate-limit/failed-attempts.js';

export const FAILED_BINDS_ALLOWED = 5;
export const FAILED_BINDS_WINDOW_MS = 60_000;

export type BindVerdict =
  | { ok: true; credential: SmppCredential; record: KeyRecord }
  | { ok: false; status: number; reason: string };

/** A bind as it asks: who, from where, and as what. */
export interface BindRequest {
  systemId: string;
  password: string;
  address: string;
  mode: BindMode;
  /** Whether the connection still waits for the answer: a closed one is not checked at all. */
  wanted?: () => boolean;
}

export interface BindAuthOptions {
  store: Pick<SmppCredentialStore, 'getSmppCredential'> & Pick<ApiKeyStore, 'apiKeyByHash'>;
  now: () => number;
  /** Binds this node holds for a system_id now. */
  bindsOf: (systemId: string) => number;
  /** Told when an address's failures reach the limit and it is refused for a while. */
  onLockout?: (address: string) => void;
}

export class BindAuth {
  private readonly attempts: FailedAttempts;
  /** The check under way per address: binds from one address are checked one after another. */
  private readonly checking = new Map<string, Promise<unknown>>();

  constructor(private readonly o: BindAuthOptions) {
    this.attempts = new FailedAttempts({
      allowed: FAILED_BINDS_ALLOWED,
      windowMs: FAILED_BINDS_WINDOW_MS,
      now: o.now,
    });
  }

  /**
   * One address's binds wait for each other: a client opening a hundred binds at once costs one
   * scrypt at a time, and its failures count before its next guess is checked.
   */
  check(bind: BindRequest): Promise<BindVerdict> {
    const before = this.checking.get(bind.address) ?? Promise.resolve();
    const mine = before.then(() => this.checkNow(bind));
    const settled = mine.catch(() => undefined);
    this.checking.set(bind.address, settled);
    void settled.then(() => {
      if (this.checking.get(bind.address) === settled) this.checking.delete(bind.address);
    });
    return mine;
  }

  private async checkNow(bind: BindRequest): Promise<BindVerdict> {
    // A burst of binds closed while queued must not cost a password check each (nor count).
    if (bind.wanted && !bind.wanted()) {
      return refuse(STATUS.ESME_RBINDFAIL, 'the connection closed before its bind was checked');
    }
    if (this.blocked(bind.address)) {
      return refuse(STATUS.ESME_RBINDFAIL, 'too many failed binds from this address');
    }
    const credential = await this.o.store.getSmppCredential(bind.systemId);
    if (!credential) return this.failed(bind.address, STATUS.ESME_RINVSYSID, 'unknown system_id');
    if (!(await verifyPassword(bind.password, credential.passwordHash))) {
      return this.failed(bind.address, STATUS.ESME_RINVPASWD, 'wrong password');
    }
    const record = await this.o.store.apiKeyByHash(credentialHash('smpp', bind.systemId));
    const state = record ? keyState(record, this.o.now()) : 'revoked';
    if (!record || state !== 'active') {
      return this.failed(bind.address, STATUS.ESME_RBINDFAIL, `credential ${state}`);
    }
    const missing = missingBindScopes(record, bind.mode);
    if (missing.length > 0) {
      const scopes = missing.join(' and ');
      return refuse(STATUS.ESME_RBINDFAIL, `a ${bind.mode} bind needs the ${scopes} scope`);
    }
    if (!allowedBy(credential.allowedNetworks, bind.address)) {
      return this.failed(bind.address, STATUS.ESME_RBINDFAIL, 'address not in AllowedNetworks');
    }
    if (this.o.bindsOf(credential.systemId) >= credential.maxBinds) {
      return refuse(STATUS.ESME_RBINDFAIL, `already ${credential.maxBinds} binds (MaxBinds)`);
    }
    // Failures are not forgiven by a success: one valid credential must not reset the count
    // against guessing another's password.
    return { ok: true, credential, record };
  }

  private blocked(address: string): boolean {
    return this.attempts.blockedFor(address) > 0;
  }

  private failed(address: string, status: number, reason: string): BindVerdict {
    if (this.attempts.failed(address)) this.o.onLockout?.(address);
    return refuse(status, reason);
  }
}

function refuse(status: number, reason: string): BindVerdict {
  return { ok: false, status, reason };
}
