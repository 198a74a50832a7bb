/** Opt-outs as the store keeps them; ports.ts composes them into the Store. */
import type { OptOut, OptOutFilter, OptOutSettings, OptOutSource } from './opt-out.js';

/**
 * Opt-outs (docs/opt-out.md), per account and phone. Every change writes its event
 * (contact.opted_out / contact.opted_in) in the same transaction.
 */
export interface OptOutStore {
  optOutSettings(accountId: number): Promise<OptOutSettings>;
  setOptOutSettings(accountId: number, settings: OptOutSettings): Promise<void>;
  /** The phones among `phones` the account may not send to. */
  optedOutAmong(accountId: number, phones: readonly string[]): Promise<Set<string>>;
  /** Records opt-outs not recorded yet; answers the phones this call added. */
  addOptOuts(list: readonly OptOut[], now: number): Promise<string[]>;
  /** Removes the account's opt-outs of these phones; answers the phones removed. */
  removeOptOuts(
    accountId: number,
    phones: readonly string[],
    source: OptOutSource,
    now: number,
  ): Promise<string[]>;
  /** In phone order, a page at a time. */
  listOptOuts(filter: OptOutFilter): Promise<{ optOuts: OptOut[]; nextCursor: string | undefined }>;
}
