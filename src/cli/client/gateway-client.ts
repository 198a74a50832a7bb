import { WirebirdApiError, WirebirdClient, WirebirdTransportError } from '@wirebird/client';
import { CliError } from '../cli-error.js';

export interface Credentials {
  url: string;
  accountId: number;
  key: string;
}

/**
 * Retries of one request: enough to ride out a gateway restart (the waits grow to 5 s). Sends
 * carry an Idempotency-Key, so a retry never sends twice.
 */
const RETRIES = 5;

/** The CLI's calls go through the typed client (packages/client), as any application's would. */
export function gatewayClient(credentials: Credentials): WirebirdClient {
  return new WirebirdClient({
    baseUrl: credentials.url,
    apiKey: credentials.key,
    accountId: credentials.accountId,
    retries: RETRIES,
    timeoutMs: 60_000,
  });
}

/**
 * A refusal or an unreachable gateway as the line the CLI prints; `what` says which call failed.
 * An unknown key or account gets the hint that fixes it.
 */
export function cliErrorOf(err: unknown, what: string): Error {
  if (err instanceof WirebirdApiError) {
    const message = String(err.answer.Message);
    if (err.code === 'Unauthenticated' || err.code === 'PermissionDenied') {
      return new CliError(`${message} (RetCode ${err.retCode}); check --key and --account`);
    }
    return new CliError(`${what}: ${message} (RetCode ${err.retCode})`);
  }
  if (err instanceof WirebirdTransportError) {
    // Nothing listens there: no flag of the call is to blame, but where the CLI looked.
    if (err.unreached) {
      return new CliError(
        `${err.message} after ${RETRIES + 1} attempts: start it (npm start, or wirebird serve), or set --url or PORT`,
      );
    }
    return new CliError(`${what}: ${err.message} after ${RETRIES + 1} attempts`);
  }
  return err instanceof Error ? err : new Error(String(err));
}
