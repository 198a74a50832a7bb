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
import { PasswordChecks, type Lane } from './password-checks.js';

export const FAILED_BINDS_ALLOWED = 5;
export const FAILED_BINDS_WINDOW_MS = 60_000;
/** Password checks at once on a node: scrypt takes a thread-pool thread and a core for ~50 ms. */
export const BIND_CHECKS_AT_ONCE = 2;
/** Password checks waiting at most on a node: about 4 s of work, well inside bindTimeoutMs. */
export const BIND_CHECKS_WAITING = 32;
/** Binds waiting at most per address (one address's binds are checked in turn). */
export const BIND_CHECKS_WAITING_PER_ADDRESS = 64;
/** How long a successful password check is remembered, so a reconnect pays no scrypt. */
export const BIND_CHECK_REMEMBERED_MS = 10 * 60_000;
/** How long a system_id bound from an address keeps that address in the `known` lane. */
const KNOWN_FOR_MS = 24 * 3_600_000;

/** Why a bind was refused before its password could be checked (counted in /metrics). */
export type BindRefusal = 'busy' | 'address_busy' | 'timeout';

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
  /** Told of each bind refused because the node had no room to check it. */
  onRefused?: (why: BindRefusal) => void;
  /** The password check (scrypt); tests pass a slower or counted one. */
  verify?: (password: string, hash: string) => Promise<boolean>;
}

export class BindAuth {
  private readonly attempts: FailedAttempts;
  /** The check under way per address: binds from one address are checked one after another. */
  private readonly checking = new Map<string, Promise<unknown>>();
  /** Binds waiting per address (its check under way and those behind it). */
  private readonly pending = new Map<string, number>();
  private readonly passwords: PasswordChecks;
  /** `system_id\0address` → when that system_id last bound from that address. */
  private readonly known = new Map<string, number>();

  constructor(private readonly o: BindAuthOptions) {
    this.attempts = new FailedAttempts({
      allowed: FAILED_BINDS_ALLOWED,
      windowMs: FAILED_BINDS_WINDOW_MS,
      now: o.now,
    });
    this.passwords = new PasswordChecks({
      concurrency: BIND_CHECKS_AT_ONCE,
      capacity: BIND_CHECKS_WAITING,
      rememberMs: BIND_CHECK_REMEMBERED_MS,
      now: o.now,
      verify: o.verify ?? verifyPassword,
    });
  }

  /**
   * One address's binds wait for each other: a client opening a hundred binds at once costs one
   * scrypt at a time, and its failures count before its next guess is checked. Past a bound of
   * binds waiting from one address, more are refused at once, so memory stays bounded.
   */
  check(bind: BindRequest): Promise<BindVerdict> {
    const waiting = this.pending.get(bind.address) ?? 0;
    if (waiting >= BIND_CHECKS_WAITING_PER_ADDRESS) {
      this.o.onRefused?.('address_busy');
      return Promise.resolve(
        refuse(STATUS.ESME_RBINDFAIL, 'too many binds from this address wait for their check'),
      );
    }
    this.pending.set(bind.address, waiting + 1);
    return this.inTurn(bind).finally(() => {
      const left = (this.pending.get(bind.address) ?? 1) - 1;
      if (left > 0) this.pending.set(bind.address, left);
      else this.pending.delete(bind.address);
    });
  }

  /** A bind the node could not check in time: the status its connection answers it with. */
  timedOut(): number {
    this.o.onRefused?.('timeout');
    return STATUS.ESME_RBINDFAIL;
  }

  private inTurn(bind: BindRequest): Promise<BindVerdict> {
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
    const checked = await this.passwords.check({
      systemId: credential.systemId,
      password: bind.password,
      hash: credential.passwordHash,
      lane: this.laneOf(credential.systemId, bind.address),
      ...(bind.wanted ? { wanted: bind.wanted } : {}),
    });
    if (checked === 'busy') {
      this.o.onRefused?.('busy');
      return refuse(STATUS.ESME_RBINDFAIL, 'too many binds wait for a password check: retry');
    }
    if (checked === 'dropped') {
      return refuse(STATUS.ESME_RBINDFAIL, 'the connection closed before its bind was checked');
    }
    if (checked === 'mismatch') {
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
    this.rememberKnown(credential.systemId, bind.address);
    return { ok: true, credential, record };
  }

  /** Which lane a bind's password check waits in (password-checks.ts). */
  private laneOf(systemId: string, address: string): Lane {
    const bound = this.known.get(`${systemId}\0${address}`);
    if (bound !== undefined && bound > this.o.now() - KNOWN_FOR_MS) return 'known';
    return this.attempts.failuresOf(address) === 0 ? 'clean' : 'other';
  }

  private rememberKnown(systemId: string, address: string): void {
    const key = `${systemId}\0${address}`;
    this.known.delete(key);
    this.known.set(key, this.o.now());
    if (this.known.size > 10_000) {
      const oldest = this.known.keys().next().value;
      if (oldest !== undefined) this.known.delete(oldest);
    }
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
