import type { Command } from 'commander';
import { hashKey, newApiKey } from '../api/auth.js';
import { accountOption, failOnError, withStore } from './open-store.js';
import { registerUcloudKeys } from './ucloud-keys.js';
import { registerSmppCredentials } from './smpp-credentials.js';

export function registerKeys(program: Command): void {
  const keys = program
    .command('keys')
    .description('manage API keys')
    .addHelpText('after', '\nExample:\n  wirebird keys create --account 42');
  keys
    .command('create')
    .description('create an API key for an account (the account is created if new)')
    .requiredOption('-a, --account <AccountId>', 'the account the key belongs to')
    .option('-c, --config <file>', 'a JSON config file')
    .addHelpText('after', '\nExample:\n  wirebird keys create --account 42')
    .action(async (opts: { account: string; config?: string }) => {
      await withStore(opts.config, async (store) => {
        const accountId = accountOption(opts.account);
        const key = newApiKey();
        await store.ensureAccount(accountId, Date.now());
        await store.addApiKey(accountId, hashKey(key), Date.now());
        console.log(
          `AccountId ${accountId}\nAPI key   ${key}\n(shown once; Wirebird keeps only its hash)`,
        );
      }).catch(failOnError);
    });
  registerUcloudKeys(keys);
  registerSmppCredentials(keys);
}
