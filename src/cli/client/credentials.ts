import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliError } from '../cli-error.js';
import type { Credentials } from './gateway-client.js';

export interface CredentialOptions {
  url?: string;
  key?: string;
  account?: string;
}

/**
 * Where the gateway is and which key to use: flags, then the environment (WIREBIRD_URL,
 * WIREBIRD_API_KEY, WIREBIRD_ACCOUNT_ID), then the development account's key file in the data
 * folder, so that on the machine running `npm start` the commands work with no flags at all.
 */
export function resolveCredentials(
  opts: CredentialOptions,
  env: NodeJS.ProcessEnv = process.env,
): Credentials {
  const url = (opts.url ?? env.WIREBIRD_URL ?? `http://127.0.0.1:${env.PORT ?? 8080}`).replace(
    /\/+$/,
    '',
  );
  if (!/^https?:\/\/[^/]+/.test(url))
    throw new CliError(`--url must be an http(s) URL such as http://127.0.0.1:8080`);
  const raw = opts.key ?? env.WIREBIRD_API_KEY ?? devKey(env);
  // The dev key file holds "AccountId:key"; a key given so carries its account.
  const m = /^(\d+):(.+)$/.exec(raw.trim());
  // The pattern matched, so its second group took part.
  const key = m ? (m[2] as string) : raw.trim();
  const accountText = opts.account ?? env.WIREBIRD_ACCOUNT_ID ?? m?.[1];
  if (accountText === undefined)
    throw new CliError('--account (or WIREBIRD_ACCOUNT_ID) is required with this key');
  const accountId = Number(accountText);
  if (!/^\d{1,15}$/.test(accountText) || accountId < 1)
    throw new CliError('--account must be a positive integer');
  return { url, accountId, key };
}

function devKey(env: NodeJS.ProcessEnv): string {
  const file = join(env.WIREBIRD_DATA_DIR ?? './data', 'dev-account.key');
  try {
    return readFileSync(file, 'utf8');
  } catch {
    throw new CliError(`no API key: give --key (or WIREBIRD_API_KEY); ${file} was not found`);
  }
}
