/**
 * The SMPP server's credentials as the store keeps them; ports.ts composes them into the Store.
 */
import type { KeyRecord } from '../keys/key-record.js';
import type { SmppCredential } from './credential.js';

/** The credentials ESMEs bind to the SMPP server with (docs/smpp-server.md). */
export interface SmppCredentialStore {
  /**
   * Adds one with its key record (kind `smpp`, keyHash credentialHash('smpp', systemId)), or
   * replaces the one with its system_id when it is the same account's, keeping its record.
   */
  saveSmppCredential(c: SmppCredential, record: KeyRecord): Promise<'saved' | 'taken'>;
  getSmppCredential(systemId: string): Promise<SmppCredential | undefined>;
  /** An account's, by system_id; every account's when undefined (the operator). */
  listSmppCredentials(accountId: number | undefined): Promise<SmppCredential[]>;
  /** Deletes it and its key record; true when the account had it. */
  deleteSmppCredential(accountId: number, systemId: string): Promise<boolean>;
}
