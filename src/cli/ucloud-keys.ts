import type { Command } from 'commander';
import { createKeyPair, deleteKeyPair } from '../core/ucloud-key-pairs.js';
import { secretBox } from '../crypto/secret-box.js';
import { resolveGatewaySecret } from '../crypto/secret-files.js';
import { accountOption, cliAudit, failOnError, withStore } from './open-store.js';
import { termsOfFlags, withTermsFlags, type TermsFlags } from './key-terms.js';
import { recordsOf } from '../core/api-keys.js';
import { credentialHash, keyState } from '../domain/keys/key-record.js';

/** `wirebird keys ucloud create|list|delete`: the key pairs the UCloud SDKs sign with. */
export function registerUcloudKeys(keys: Command): void {
  const ucloud = keys
    .command('ucloud')
    .description('manage UCloud SDK key pairs (docs/ucloud-sdk.md)')
    .addHelpText('after', '\nExample:\n  wirebird keys ucloud create --account 1');
  registerUcloudCreate(ucloud);
  registerUcloudList(ucloud);
  registerUcloudDelete(ucloud);
}

function registerUcloudCreate(ucloud: Command): void {
  const create = ucloud
    .command('create')
    .description('create a key pair for an account; the private key is shown once')
    .requiredOption('-a, --account <AccountId>', 'the account the key pair belongs to');
  withTermsFlags(create, 'key pair')
    .option('-c, --config <file>', 'a JSON config file')
    .action(async (opts: TermsFlags & { account: string; config?: string }) => {
      await withStore(opts.config, async (store, config) => {
        const box = secretBox(resolveGatewaySecret(config));
        const accountId = accountOption(opts.account);
        const now = Date.now();
        const terms = termsOfFlags(opts, now);
        const pair = await createKeyPair(store, box, { accountId, terms }, now);
        const detail = { KeyId: pair.record.keyId, Scopes: pair.record.scopes };
        const fact = { action: 'ucloud_key.created', target: pair.publicKey, accountId, detail };
        await cliAudit(store, fact);
        console.log(
          `AccountId   ${accountId}\nKeyId       ${pair.record.keyId}\nPublicKey   ${pair.publicKey}\nPrivateKey  ${pair.privateKey}\n` +
            '(shown once; Wirebird keeps it sealed under the gateway secret)',
        );
      }).catch(failOnError);
    });
}

function registerUcloudList(ucloud: Command): void {
  ucloud
    .command('list')
    .description("list an account's key pairs (public keys only)")
    .requiredOption('-a, --account <AccountId>', 'the account')
    .option('-c, --config <file>', 'a JSON config file')
    .action(async (opts: { account: string; config?: string }) => {
      await withStore(opts.config, async (store) => {
        const accountId = accountOption(opts.account);
        const keys = await store.listUcloudKeys(accountId);
        const records = await recordsOf(store, accountId, 'ucloud');
        if (keys.length === 0) console.log('no key pairs');
        for (const k of keys) {
          const r = records.get(credentialHash('ucloud', k.publicKey));
          const state = r ? keyState(r, Date.now()) : 'revoked';
          console.log(
            `${k.publicKey}  ${r?.keyId ?? ''}  ${state}  created ${new Date(k.createdAt).toISOString()}`,
          );
        }
      }).catch(failOnError);
    });
}

function registerUcloudDelete(ucloud: Command): void {
  ucloud
    .command('delete')
    .description('delete a key pair: requests signed with it are refused from then on')
    .requiredOption('-a, --account <AccountId>', 'the account')
    .requiredOption('-p, --public-key <PublicKey>', 'the key pair to delete')
    .option('-c, --config <file>', 'a JSON config file')
    .action(async (opts: { account: string; publicKey: string; config?: string }) => {
      await withStore(opts.config, async (store) => {
        const accountId = accountOption(opts.account);
        await deleteKeyPair(store, accountId, opts.publicKey);
        await cliAudit(store, { action: 'ucloud_key.deleted', target: opts.publicKey, accountId });
        console.log(`deleted ${opts.publicKey}`);
      }).catch(failOnError);
    });
}
