import type { Command } from 'commander';
import { loadConfig } from '../config/config.js';
import { startGateway } from '../main.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the gateway (the API, the dispatcher and the simulator)')
    .option('-c, --config <file>', 'a JSON config file (also WIREBIRD_CONFIG)')
    .addHelpText(
      'after',
      '\nExample:\n  PORT=9000 WIREBIRD_DATA_DIR=/var/lib/wirebird wirebird serve',
    )
    .action(async (opts: { config?: string }) => {
      const config = loadConfig(process.env, opts.config ?? process.env.WIREBIRD_CONFIG);
      const gw = await startGateway(config);
      if (gw.devAccount) {
        console.log(
          [
            '',
            'Wirebird created a development account (shown once):',
            `  AccountId: ${gw.devAccount.accountId}`,
            `  API key:   ${gw.devAccount.key}`,
            `  (also in ${config.dataDir}/dev-account.key, readable by you only)`,
            `  Admin key: in ${config.dataDir}/admin.key`,
            '',
          ].join('\n'),
        );
      }
      const stop = () => {
        gw.stop().then(
          () => process.exit(0),
          () => process.exit(1),
        );
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
