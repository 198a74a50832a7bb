import type { Command } from 'commander';
import {
  apiKeyView,
  createApiKey,
  renameApiKey,
  revokeApiKey,
  rotateApiKey,
} from '../core/api-keys.js';
import { checkGrace, checkKeyName, type KeyRecord } from '../domain/keys/key-record.js';
import { termsOfFlags, withTermsFlags, type TermsFlags } from './key-terms.js';
import { CliError } from './cli-error.js';
import { accountOption, cliAudit, failOnError, withStore } from './open-store.js';
import { registerUcloudKeys } from './ucloud-keys.js';
import { registerSmppCredentials } from './smpp-credentials.js';

type KeyOpts = { account: string; config?: string };

const shownOnce = (key: string, k: KeyRecord) =>
  `AccountId ${k.accountId}\nKeyId     ${k.keyId}\nAPI key   ${key}\n(shown once; Wirebird keeps only its hash)`;

export function registerKeys(program: Command): void {
  const keys = program
    .command('keys')
    .description('manage API keys: create, list, rename, revoke, rotate')
    .addHelpText(
      'after',
      '\nExamples:\n  wirebird keys create --account 42 --name billing --scopes send,read\n  wirebird keys list --account 42\n  wirebird keys revoke --account 42 key_AbCd… --reason "leaked"',
    );
  registerCreate(keys);
  registerList(keys);
  registerChanges(keys);
  registerUcloudKeys(keys);
  registerSmppCredentials(keys);
}

function registerCreate(keys: Command): void {
  const create = keys
    .command('create')
    .description('create an API key for an account (the account is created if new)')
    .requiredOption('-a, --account <AccountId>', 'the account the key belongs to');
  withTermsFlags(create, 'key')
    .option('-c, --config <file>', 'a JSON config file')
    .action(async (opts: KeyOpts & TermsFlags) => {
      await withStore(opts.config, async (store) => {
        const now = Date.now();
        const { key, record } = await createApiKey(
          store,
          { accountId: accountOption(opts.account), ...termsOfFlags(opts, now) },
          now,
        );
        const detail = { Name: record.name, Scopes: record.scopes };
        await cliAudit(store, { ...audited('key.created', record), detail });
        console.log(shownOnce(key, record));
      }).catch(failOnError);
    });
}

/** The audit fact of a change to key `k`. */
const audited = (action: string, k: KeyRecord) => ({
  action,
  target: k.keyId,
  accountId: k.accountId,
});

function registerList(keys: Command): void {
  keys
    .command('list')
    .description(
      "list an account's keys: API keys, SMPP credentials, UCloud key pairs (never the secrets)",
    )
    .requiredOption('-a, --account <AccountId>', 'the account')
    .option('-c, --config <file>', 'a JSON config file')
    .action(async (opts: KeyOpts) => {
      await withStore(opts.config, async (store) => {
        const now = Date.now();
        const list = await store.listApiKeys(accountOption(opts.account));
        for (const k of list.map((x) => apiKeyView(x, now))) {
          // apiKeyView answers Scopes as the key's list of scope names.
          const scopes = (k.Scopes as string[]).join(',') || 'all';
          console.log(
            `${String(k.KeyId)}  ${String(k.Kind)}  ${String(k.Prefix)}${k.Kind === 'api' ? '…' : ''}  ${String(k.State)}  scopes=${scopes}  ${String(k.Name)}`,
          );
        }
        if (list.length === 0) console.log('no keys');
      }).catch(failOnError);
    });
}

function registerChanges(keys: Command): void {
  const keyCommand = (name: string, description: string) =>
    keys
      .command(`${name} <KeyId>`)
      .description(description)
      .requiredOption('-a, --account <AccountId>', 'the account the key belongs to')
      .option('-c, --config <file>', 'a JSON config file');
  keyCommand('rename', 'rename an API key')
    .requiredOption('-n, --name <name>', 'the new name')
    .action(async (keyId: string, opts: KeyOpts & { name: string }) => {
      await withStore(opts.config, async (store) => {
        const at = { accountId: accountOption(opts.account), keyId };
        const k = await renameApiKey(store, at, checkKeyName(opts.name, '--name'));
        await cliAudit(store, { ...audited('key.renamed', k), detail: { Name: k.name } });
        console.log(`${k.keyId} is now named ${JSON.stringify(k.name)}`);
      }).catch(failOnError);
    });
  keyCommand('revoke', 'revoke an API key: refused from the next request on, on every node')
    .option('-r, --reason <text>', 'why (kept with the key)', 'revoked with the CLI')
    .action(async (keyId: string, opts: KeyOpts & { reason: string }) => {
      await withStore(opts.config, async (store) => {
        const at = { accountId: accountOption(opts.account), keyId };
        const k = await revokeApiKey(store, at, Date.now(), opts.reason);
        await cliAudit(store, {
          ...audited('key.revoked', k),
          detail: { Reason: k.revokedReason },
        });
        console.log(`${k.keyId} revoked (${k.revokedReason})`);
      }).catch(failOnError);
    });
  keyCommand('rotate', 'make a new key like this one; the old one works for the grace period')
    .option('-g, --grace <seconds>', 'how long the old key keeps working', '86400')
    .action(async (keyId: string, opts: KeyOpts & { grace: string }) => {
      await withStore(opts.config, async (store) => {
        const grace = Number(opts.grace);
        if (!Number.isInteger(grace)) throw new CliError('--grace must be whole seconds');
        const at = { accountId: accountOption(opts.account), keyId };
        const made = await rotateApiKey(store, at, Date.now(), checkGrace(grace, '--grace'));
        const detail = { NewKeyId: made.record.keyId };
        await cliAudit(store, { ...audited('key.rotated', made.previous), detail });
        console.log(shownOnce(made.key, made.record));
        console.log(`${keyId} works until ${new Date(made.previous.expiresAt ?? 0).toISOString()}`);
      }).catch(failOnError);
    });
}
