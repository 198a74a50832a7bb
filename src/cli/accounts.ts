import type { Command } from 'commander';
import { WirebirdError } from '../domain/errors.js';
import { accountOption, failOnError, withStore } from './open-store.js';
import { registerPolicyCommands } from './account-policy.js';

/** `wirebird accounts`: an account's own region, and its policy (cli/account-policy.ts). */
export function registerAccounts(program: Command): void {
  const accounts = program.command('accounts').description('settings of an account');
  accounts
    .command('region')
    .description(
      "set the region an account's numbers without a country code are read in (default: the gateway's defaultRegion)",
    )
    .requiredOption('-a, --account <AccountId>', 'the account')
    .option('-r, --region <code>', 'a two-letter region code, such as US or CN')
    .option('--clear', "go back to the gateway's defaultRegion")
    .option('-c, --config <file>', 'a JSON config file')
    .addHelpText('after', '\nExample:\n  wirebird accounts region --account 42 --region US')
    .action(
      async (opts: { account: string; region?: string; clear?: boolean; config?: string }) => {
        await withStore(opts.config, async (store, config) => {
          const accountId = accountOption(opts.account);
          const region = await regionOption(opts);
          if (!(await store.setAccountRegion(accountId, region))) {
            throw new WirebirdError(
              'NotFound',
              `no account ${accountId}: create a key for it first`,
            );
          }
          const effective = region ?? `${config.defaultRegion} (the gateway's)`;
          console.log(
            `AccountId ${accountId}: numbers without a country code are read in ${effective}`,
          );
        }).catch(failOnError);
      },
    );
  registerPolicyCommands(accounts);
}

async function regionOption(opts: {
  region?: string;
  clear?: boolean;
}): Promise<string | undefined> {
  // Loaded here: the phone metadata is most of what the CLI would load at start otherwise.
  const { isKnownRegion } = await import('../domain/phones/phones.js');
  if (opts.clear === true && opts.region === undefined) return undefined;
  const region = opts.region?.toUpperCase();
  if (opts.clear === true || region === undefined || !isKnownRegion(region)) {
    throw new WirebirdError(
      'InvalidParameter',
      '--region must be a two-letter region code such as US or CN (or give --clear alone)',
    );
  }
  return region;
}
