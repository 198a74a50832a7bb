#!/usr/bin/env node
import { Command } from 'commander';
import { registerServe } from './serve.js';
import { registerMigrate } from './migrate.js';
import { registerTemplates } from './templates.js';
import { registerKeys } from './keys.js';
import { registerSmscSim } from './smsc-sim.js';
import { failOnError } from './open-store.js';

const program = new Command()
  .name('wirebird')
  .description('Wirebird, a self-hosted SMS and business-messaging gateway.')
  .showHelpAfterError();
registerServe(program);
registerMigrate(program);
registerKeys(program);
registerTemplates(program);
registerSmscSim(program);
// Any command's failure ends in one line naming what to fix, never a stack trace.
await program.parseAsync().catch(failOnError);
