import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { Config } from '../config/config.js';
import type { Gateway } from '../gateway/start-gateway.js';
import { DOCS_PATH, OPENAPI_PATH } from '../http/paths.js';
import { failOnError } from './open-store.js';
import { errorCode, fieldsOf } from '../util/unknown-values.js';

export function registerServe(program: Command): void {
  program
    .command('serve')
    .description('run the gateway (the API, the dispatcher and the simulator)')
    .option('-c, --config <file>', 'a JSON config file (also WIREBIRD_CONFIG)')
    .option(
      '-d, --data-dir <dir>',
      'the SQLite database and key files (WIREBIRD_DATA_DIR; default ./data in the working folder)',
    )
    .addHelpText('after', '\nExample:\n  PORT=9000 wirebird serve --data-dir /var/lib/wirebird')
    .action(async (opts: { config?: string; dataDir?: string }) => {
      const signals = stopOnSignal();
      // Loaded here, not at the top: the other commands need none of the gateway.
      const { loadConfig } = await import('../config/config.js');
      // The flag is the environment's variable, said on the command line: it wins over both.
      const env = opts.dataDir ? { ...process.env, WIREBIRD_DATA_DIR: opts.dataDir } : process.env;
      const config = loadConfig(env, opts.config ?? process.env.WIREBIRD_CONFIG);
      const { startGateway } = await import('../gateway/start-gateway.js');
      const gw = await startGateway(config).catch((err: unknown) =>
        failOnError(explain(err, config)),
      );
      // One process, one gateway: its memory is handed back after each quiet spell.
      const { IDLE_GC, fullCollection, startIdleGc } = await import('../gateway/idle-gc.js');
      startIdleGc({ ...IDLE_GC, collect: fullCollection() });
      announceCredentials(gw, config);
      console.log(banner(gw.url, config, gw.smppAddress));
      signals.started(gw);
    });
}

/**
 * SIGINT and SIGTERM, caught before the gateway starts: one that comes while it starts (its HTTP
 * port may already answer) stops it gracefully once started, where node's default would kill it
 * mid-start and lose what it keeps in memory (keys' last use). A second signal kills at once.
 */
function stopOnSignal(): { started: (gw: Gateway) => void } {
  let gateway: Gateway | undefined;
  let asked: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (asked) {
      // The second: node's default for it, at once.
      process.removeListener('SIGINT', onSignal);
      process.removeListener('SIGTERM', onSignal);
      process.kill(process.pid, signal);
      return;
    }
    asked = signal;
    if (gateway) stopGateway(gateway, signal);
    else
      console.error(`${signal} received while starting: stopping once started (again to stop now)`);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    started(gw) {
      gateway = gw;
      if (asked) stopGateway(gw, asked);
    },
  };
}

function stopGateway(gw: Gateway, signal: NodeJS.Signals): void {
  gw.logger.info({ signal }, `${signal} received: stopping`);
  gw.stop().then(
    () => process.exit(0),
    (err: unknown) => {
      gw.logger.error({ err }, 'the stop failed; what was in hand comes back by its lease');
      process.exit(1);
    },
  );
}

/** What a first start made, shown once: the development account's key and SMPP credential. */
function announceCredentials(gw: Gateway, config: Config): void {
  if (gw.devAccount) {
    console.log(
      [
        '',
        'Wirebird created a development account (shown once):',
        `  AccountId: ${gw.devAccount.accountId}`,
        `  API key:   ${gw.devAccount.key}`,
        `  (also in ${config.dataDir}/dev-account.key, readable by you only)`,
        ...(gw.devAccount.smsNumber
          ? [`  SMS number: ${gw.devAccount.smsNumber} (replies sent to it are this account's)`]
          : []),
        `  Admin key: in ${config.dataDir}/admin.key`,
        '',
      ].join('\n'),
    );
  } else if (existsSync(join(config.dataDir, 'dev-account.key'))) {
    console.log(`Development account key: ${join(config.dataDir, 'dev-account.key')}`);
  }
  if (gw.devSmpp) {
    console.log(
      [
        'SMPP credential of the development account (shown once):',
        `  system_id: ${gw.devSmpp.systemId}  password: ${gw.devSmpp.password}`,
        `  (also in ${config.dataDir}/dev-smpp.credential, readable by you only)`,
        '',
      ].join('\n'),
    );
  }
}

/** Where to go next: the console, and the README's first call, ready to paste. */
function banner(url: string, config: Config, smppAddress: string | undefined): string {
  const keyFile = join(config.dataDir, 'dev-account.key');
  const lines = [
    `Wirebird is serving on ${url}`,
    `  Console: ${url}/console (admin key in ${join(config.dataDir, 'admin.key')})`,
    `  API reference: ${url}${DOCS_PATH} (OpenAPI document: ${url}${OPENAPI_PATH})`,
    ...(smppAddress ? [`  SMPP server: ${smppAddress} (docs/smpp-server.md)`] : []),
  ];
  if (existsSync(keyFile)) {
    lines.push(
      '  First call (creates a template; the README goes on from there):',
      `    KEY=$(cut -d: -f2 ${keyFile})`,
      `    curl -s ${url}/api -H "Authorization: Bearer $KEY" -H 'Content-Type: application/json' \\`,
      `      -d '{"Action":"CreateUSMSTemplate","AccountId":1,"Purpose":2,"TemplateName":"hello","Template":"Hi {1}"}'`,
    );
  }
  return lines.join('\n') + '\n';
}

/** What a person can act on, rather than a stack trace. */
function explain(err: unknown, config: Config): unknown {
  const code = errorCode(err);
  if (code === 'EADDRINUSE') {
    const smpp = config.smppServer.listen;
    const port = fieldsOf(err).port;
    const which = typeof port === 'number' ? port : undefined;
    if (smpp && which !== undefined && smpp.endsWith(`:${which}`) && which !== config.port) {
      return `${smpp} is already in use; set WIREBIRD_SMPP_LISTEN to another address`;
    }
    return `${config.host}:${config.port} is already in use; set PORT to another port`;
  }
  if (code === 'EACCES') return `not allowed to listen on ${config.host}:${config.port}`;
  return err;
}
