/**
 * Rules every face applies alike before it accepts a message for an account: which region its
 * national numbers are read in, and which of its numbers opted out. The HTTP API, the SMPP server,
 * the console and the CLI call these instead of asking the store each in its own way.
 */
import type { Store } from '../domain/ports.js';

/** The region an account's numbers without a country code are read in: its own, else the gateway's. */
export async function regionOfAccount(
  store: Pick<Store, 'accountRegion'>,
  accountId: number,
  gatewayRegion: string,
): Promise<string> {
  return (await store.accountRegion(accountId)) ?? gatewayRegion;
}

/** The numbers (E.164) among `phones` that opted out of the account's messages. */
export async function optedOut(
  store: Pick<Store, 'optedOutAmong'>,
  accountId: number,
  phones: readonly string[],
): Promise<ReadonlySet<string>> {
  return phones.length === 0 ? new Set() : store.optedOutAmong(accountId, phones);
}

/**
 * The opted-out numbers among `phones`, and whether a verification code (a template of Purpose 1)
 * still reaches them: the account's exemption, read only when some number opted out.
 */
export async function optOutsOf(
  store: Pick<Store, 'optedOutAmong' | 'optOutSettings'>,
  accountId: number,
  phones: readonly string[],
): Promise<{ optedOut: ReadonlySet<string>; verificationExempt: boolean }> {
  const out = await optedOut(store, accountId, phones);
  const verificationExempt =
    out.size > 0 && (await store.optOutSettings(accountId)).exemptVerification;
  return { optedOut: out, verificationExempt };
}
