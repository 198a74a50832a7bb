#!/usr/bin/env node
import { Command } from 'commander';
import { registerServe } from './serve.js';
import { registerMigrate } from './migrate.js';
import { registerTemplates } from './templates.js';
import { registerKeys } from './keys.js';
import { registerAccounts } from './accounts.js';
import { registerReceipts } from './receipts.js';
import { registerSend } from './send.js';
import { registerSmscSim } from './smsc-sim.js';
import { registerGraphSim } from './graph-sim.js';
import { registerOptOuts } from './opt-outs.js';
import { registerWebhooks } from './webhooks.js';
import { failOnError } from './open-store.js';
import { VERSION } from '../util/version.js';

const program = new Command()
  .name('wirebird')
  .description('Wirebird, a self-hosted SMS and business-messaging gateway.')
  .version(VERSION, '-V, --version', 'print the version')
  .showHelpAfterError();
registerServe(program);
registerMigrate(program);
registerKeys(program);
registerAccounts(program);
registerTemplates(program);
registerSend(program);
registerReceipts(program);
registerOptOuts(program);
registerWebhooks(program);
registerSmscSim(program);
registerGraphSim(program);
program.addHelpText(
  'after',
  `
Examples:
  wirebird serve                                   run the gateway (npm start does this)
  wirebird keys create --account 42                a new API key for account 42
  wirebird templates list --status 0               templates waiting for review
  wirebird send --template UTA… --csv numbers.csv  send to every number of a CSV
  wirebird receipts 6f1c2a9e-…                     the receipts of a session
  wirebird smsc-sim --port 2775                    an SMSC to try SMPP against
  wirebird graph-sim --port 8090                   a Graph API to try WhatsApp against
  wirebird help send                               a command's options and examples`,
);
// Any command's failure ends in one line naming what to fix, never a stack trace.
await program.parseAsync().catch(failOnError);
