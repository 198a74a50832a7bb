import type { Command } from 'commander';
import { withStore, failOnError } from './open-store.js';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('apply the store migrations not yet applied (start-up does this too)')
    .option('-c, --config <file>', 'a JSON config file')
    .addHelpText('after', '\nExample:\n  WIREBIRD_DATA_DIR=/var/lib/wirebird wirebird migrate')
    .action(async (opts: { config?: string }) => {
      // Opening the store applies what is missing; say which schema it is now at.
      await withStore(opts.config, async (store) => {
        console.log(`store (${store.dialect}) is migrated`);
      }).catch(failOnError);
    });
}
